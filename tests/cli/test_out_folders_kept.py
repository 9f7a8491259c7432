"""``score --out`` / ``report --out`` never replace a run folder or a user's files (issue 22 newcomer round).

Found by a newcomer: ``score --run RUN --out RUN`` rewrote the run's own scores with another scoring, and
``report --out`` wrote into a folder of the user's files. A new, empty or earlier output folder is taken.
"""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.vsi_data import make_vsibench


@pytest.fixture
def run(tmp_path: Path) -> Path:
    make_vsibench(tmp_path / "data", n_videos=1, per_video=4)
    result = CliRunner().invoke(app, ["run", "--benchmark", "vsibench", "--data", str(tmp_path / "data"),
                                      "--model", "chance-frequency", "--out", str(tmp_path / "a"),
                                      "--no-progress"])
    assert result.exit_code == 0, result.output
    return tmp_path / "a"


def _refused(args: list[str]) -> str:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    return result.output.strip()


def test_a_run_folder_is_not_an_out(run: Path) -> None:
    before = {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()}
    assert _refused(["score", "--run", str(run), "--extract", "official", "--out", str(run)]) == (
        f"error: --out {run}: a run folder; writing the scores there would replace the run's own files: "
        "choose another folder")
    assert _refused(["report", str(run), "--out", str(run)]).startswith(
        f"error: --out {run}: a run folder; writing the report there")
    assert {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()} == before


def test_a_folder_of_other_files_is_refused_an_earlier_output_is_not(run: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("my notes\n")
    assert _refused(["report", str(run), "--out", str(mine)]) == (
        f"error: --out {mine}: holds other files (notes.txt) and no earlier report: choose a new or empty "
        "folder")
    assert _refused(["score", "--run", str(run), "--out", str(mine)]).endswith("and no earlier scores: "
                                                                             "choose a new or empty folder")
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
    for _ in range(2):  # a new folder, then the same folder again: an earlier output is replaced
        scored = CliRunner().invoke(app, ["score", "--run", str(run), "--out", str(tmp_path / "s")])
        assert scored.exit_code == 0, scored.output
        done = CliRunner().invoke(app, ["report", str(run), "--out", str(tmp_path / "r"), "--sheets", "0"])
        assert done.exit_code == 0, done.output
