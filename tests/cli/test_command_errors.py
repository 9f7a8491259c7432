"""``command_errors``: a library call's built-in errors become one CommandError line; ours keep their code."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from spatialbench.cli.apps import CommandError, ErrorBoundary, command_errors
from spatialbench.cli.errors import errors_app
from spatialbench.errors import SpatialBenchError


class _Unfinished(SpatialBenchError, ValueError):
    exit_code = 1


def _raises(error: Exception) -> typer.Typer:
    tiny = typer.Typer(cls=ErrorBoundary)

    @tiny.command("go")
    def go() -> None:
        with command_errors(KeyError, ValueError, OSError):
            raise error

    @tiny.command("other")
    def other() -> None: ...

    return tiny


@pytest.mark.parametrize(
    ("error", "code", "line"),
    [
        (ValueError("bad value\n  on two lines"), 2, "error: bad value; on two lines"),
        (FileNotFoundError("no such file: x.json"), 2, "error: no such file: x.json"),
        (KeyError("unknown sub-benchmark 'outdoor'"), 2, "error: unknown sub-benchmark 'outdoor'"),
        (_Unfinished("3 of 7 items not answered"), 1, "error: 3 of 7 items not answered"),
    ],
)
def test_builtin_errors_are_worded_and_ours_keep_their_code(error: Exception, code: int, line: str) -> None:
    result = CliRunner().invoke(_raises(error), ["go"])
    assert (result.exit_code, result.stderr.splitlines()) == (code, [line])
    assert "Traceback" not in result.output


def test_a_class_not_named_passes_unchanged() -> None:
    with pytest.raises(TypeError), command_errors(ValueError):
        raise TypeError("a bug, not a user error")


def test_the_error_is_a_command_error() -> None:
    with pytest.raises(CommandError, match="^disk full$"), command_errors(OSError):
        raise OSError("disk full")


def test_the_errors_sub_app_uses_the_boundary() -> None:
    assert errors_app.info.cls is ErrorBoundary


def test_score_checks_a_breakdown_option_before_reading_anything(tmp_path: Path) -> None:
    """``score -B`` refuses an option the benchmark does not declare before the missing files are read."""
    from spatialbench.cli.main import app

    result = CliRunner().invoke(app, ["score", "-b", "remindview", "-a", str(tmp_path / "missing"),
                                      "-p", str(tmp_path / "missing.jsonl"), "-B", "sub_bench=robot"])
    assert (result.exit_code, result.stderr.splitlines()) == (
        2, ["error: breakdown option 'sub_bench' does not apply to remindview (its options: none)"])


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["report", "RUN", "--per-task", "-1"], "--per-task': Input should be greater than or equal to 1"),
        (["report", "RUN", "--sheets", "-2"], "--sheets': Input should be greater than or equal to 0"),
    ],
)
def test_an_option_out_of_range_is_one_line_exit_2(args: list[str], line: str) -> None:
    # issue 21 newcomer check: a 5-line rich box ("╭─ Error ───") where other errors are one line
    from spatialbench.cli.main import app

    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.output.strip() == f"Error: Invalid value for '{line}"


def test_no_arguments_still_print_the_help() -> None:
    from spatialbench.cli.main import app

    result = CliRunner().invoke(app, ["errors"])
    assert "Usage:" in result.output and "sample" in result.output
