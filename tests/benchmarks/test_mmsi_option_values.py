"""MMSI-Video-Bench option values: settings on the command line and in run files, aliases, misspellings."""

from pathlib import Path

import pytest
from mmsi_remindview_fixtures import build_mmsi
from typer.testing import CliRunner

from spatialbench.benchmarks.mmsi_video.frames import frame_budget
from spatialbench.cli.main import app


@pytest.fixture(scope="module")
def mmsi(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_mmsi(tmp_path_factory.mktemp("mmsi") / "data")


def _invoke(*args: object):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, [str(a) for a in args])


def _run(data: Path, out: Path, *extra: object):  # type: ignore[no-untyped-def]
    return _invoke("run", "--benchmark", "mmsi-video", "--data", data, "--model", "chance-random",
                   "--out", out, "--no-progress", *extra)


def _row(output: str, label: str) -> list[str]:
    """The cells of the first Markdown table row starting with ``| label |``."""
    line = next(line for line in output.splitlines() if line.startswith(f"| {label} |"))
    return [cell.strip() for cell in line.strip("|").split("|")][1:]


# 1: a typed option value is one line naming the option, exit 2, no --out folder --------------------------


def test_numeric_setting_on_the_command_line_names_the_option(mmsi: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = _run(mmsi, out, "-o", "setting=50")
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        "error: benchmark option 'setting': unknown MMSI-Video-Bench frame setting '50'; "
        "known: uniform-50, sufficient-coverage (or uniform-N, consecutive-N@S)"
    ]
    assert not out.exists()


def test_numeric_setting_in_a_run_file_names_the_file_and_key(mmsi: Path, tmp_path: Path) -> None:
    file = tmp_path / "run.yaml"
    file.write_text(f"out: {tmp_path / 'run'}\ndata: {{benchmark: mmsi-video, path: {mmsi}, options: "
                    "{setting: 50}}\nmodel: {name: chance-random}\n")
    result = _invoke("run", "--config", file, "--no-progress")
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        f"Error: {file}: Invalid value for data.options.setting: takes text, not the number 50"
    ]
    assert not (tmp_path / "run").exists()


def test_frame_budget_of_a_number_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"a frame setting is a name \(uniform-50, sufficient-coverage or "
                                         r"uniform-N\), not 50"):
        frame_budget(50)  # type: ignore[arg-type]


# 10: --setting and -o setting=... that disagree -----------------------------------------------------------


def test_setting_alias_and_option_that_disagree_are_refused(mmsi: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = _run(mmsi, out, "--setting", "uniform-50", "-o", "setting=sufficient-coverage")
    assert result.exit_code == 2, result.output
    assert "--setting uniform-50 and -o setting=sufficient-coverage disagree" in result.output
    assert not out.exists()
    same = _run(mmsi, out, "--setting", "uniform-50", "-o", "setting=uniform-50")
    assert same.exit_code == 0, same.output


# 7: near misses of benchmark option names ------------------------------------------------------------------


def test_misspelt_option_suggests_the_known_one(mmsi: Path, tmp_path: Path) -> None:
    result = _run(mmsi, tmp_path / "run", "-o", "settting=uniform-50")
    assert result.exit_code == 2
    assert "unknown benchmark option 'settting'; did you mean 'setting'? known: setting" in result.output


# 2: breakdown --run of a chance baseline run ---------------------------------------------------------------


def test_breakdown_of_a_baseline_run_is_the_baseline_score(mmsi: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert _run(mmsi, out).exit_code == 0
    result = _invoke("breakdown", "--run", out)
    assert result.exit_code == 0, result.output
    # the fixture's 14 questions, scored 1 / (number of options): (9/4 + 3/5 + 2/6) / 14 = 22.7
    # (docs/benchmarks/mmsi-video.md)
    assert _row(result.output, "accuracy")[-1] == "22.7"
    assert _row(result.output, "accuracy") == _row(result.output, "random guess")
    assert "extraction: n/a" in result.output
    refused = _invoke("breakdown", "--run", out, "--extract", "official")
    assert refused.exit_code == 2
    assert "--extract does not apply to a chance-random run" in refused.output
