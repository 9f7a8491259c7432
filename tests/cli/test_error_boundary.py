"""The CLI's error boundary: a SpatialBenchError escaping a command is one stderr line and its exit code."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import spatialbench
from spatialbench.cli.apps import CommandError, ErrorBoundary, app, audit_app, generate_app
from spatialbench.errors import SpatialBenchError


class _Unfinished(SpatialBenchError, RuntimeError):
    exit_code = 1


class _BadInput(SpatialBenchError, ValueError):
    pass


def _tiny_app() -> typer.Typer:
    tiny = typer.Typer(cls=ErrorBoundary)

    @tiny.command("unfinished")
    def unfinished() -> None:
        typer.echo("started")
        raise _Unfinished("3 of 7 items not answered")

    @tiny.command("bad")
    def bad() -> None:
        raise _BadInput("run.yaml:data.limit: expected a positive integer")

    @tiny.command("multiline")
    def multiline() -> None:
        raise _BadInput("first line\n  second line\n")

    @tiny.command("bug")
    def bug() -> None:
        raise ZeroDivisionError("a bug, not a user error")

    return tiny


@pytest.mark.parametrize(
    ("command", "code", "line"),
    [
        ("unfinished", 1, "error: 3 of 7 items not answered"),
        ("bad", 2, "error: run.yaml:data.limit: expected a positive integer"),
        ("multiline", 2, "error: first line; second line"),
    ],
)
def test_spatialbench_error_is_one_stderr_line_and_its_exit_code(command: str, code: int, line: str) -> None:
    result = CliRunner().invoke(_tiny_app(), [command])
    assert result.exit_code == code
    assert result.stderr.splitlines() == [line]
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


def test_stdout_before_the_error_is_kept() -> None:
    result = CliRunner().invoke(_tiny_app(), ["unfinished"])
    assert result.stdout == "started\n"


def test_other_exceptions_are_not_swallowed() -> None:
    result = CliRunner().invoke(_tiny_app(), ["bug"])
    assert isinstance(result.exception, ZeroDivisionError)
    assert result.exit_code == 1
    assert "error:" not in result.stderr


def test_a_nested_group_keeps_the_inner_exit_code() -> None:
    outer = typer.Typer(cls=ErrorBoundary)
    outer.add_typer(_tiny_app(), name="inner")
    result = CliRunner().invoke(outer, ["inner", "unfinished"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["error: 3 of 7 items not answered"]


def test_the_spatialbench_apps_use_the_boundary() -> None:
    for typer_app in (app, generate_app, audit_app):
        assert typer_app.info.cls is ErrorBoundary


def test_a_real_process_exits_with_the_code() -> None:
    """Outside CliRunner (``sys.exit`` of a real process): an UnknownNameError is one plain line, exit 2."""
    code = (
        "import typer\n"
        "from spatialbench.cli.apps import ErrorBoundary\n"
        "from spatialbench.registry import UnknownNameError\n"
        "cli = typer.Typer(cls=ErrorBoundary)\n"
        "@cli.command('a')\n"
        "def a() -> None:\n"
        "    raise UnknownNameError(\"unknown benchmark 'vsibnch'; did you mean 'vsibench'?\")\n"
        "@cli.command('b')\n"
        "def b() -> None: ...\n"
        "cli()\n"
    )
    done = subprocess.run([sys.executable, "-c", code, "a"], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["error: unknown benchmark 'vsibnch'; did you mean 'vsibench'?"]


def _exception_classes() -> list[type[BaseException]]:
    found: list[type[BaseException]] = []
    for module_info in pkgutil.walk_packages(spatialbench.__path__, "spatialbench."):
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and not issubclass(value, Warning)  # warnings (PluginWarning) are not errors
                and value.__module__ == module.__name__
            ):
                found.append(value)
    return found


def test_every_spatialbench_exception_derives_from_the_base() -> None:
    classes = _exception_classes()
    assert len(classes) > 40
    outside = [f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, SpatialBenchError)]
    assert outside == []
    assert all(c.exit_code in (1, 2, 130) for c in classes if issubclass(c, SpatialBenchError))


def test_a_library_error_of_a_real_command_is_one_line(tmp_path: Path) -> None:
    """``generate vsibench`` lets the loader's MetaInfoNotFoundError reach the boundary: one line, exit 2."""
    from spatialbench.cli.main import app as cli

    missing = tmp_path / "missing"
    result = CliRunner().invoke(
        cli, ["generate", "vsibench", "--meta-info", str(missing), "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"error: no meta-info JSON at {missing}"]


def test_a_command_check_is_one_line(tmp_path: Path) -> None:
    """A command's own check raises CommandError: one line, exit 2, nothing written."""
    from spatialbench.cli.main import app as cli

    result = CliRunner().invoke(cli, ["ingest", "scannet", str(tmp_path), "--out", str(tmp_path / "o"),
                                      "--alpha", "0"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["error: --alpha must be > 0, got 0.0"]
    assert not (tmp_path / "o").exists()
    assert issubclass(CommandError, SpatialBenchError)
