"""Issue 26: another program's SQLite file named run.sqlite in --out is refused, not adopted as the store."""

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.vsi_data import make_vsibench


def _tables(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT type, name FROM sqlite_master ORDER BY name").fetchall()


@pytest.mark.parametrize(
    ("schema", "found"),
    [("CREATE TABLE users (id INTEGER, name TEXT)", "tables: users"),
     ("CREATE TABLE results (id INTEGER, score REAL)",
      "tables: results without attempts, error, finished_at, item_id, prompt, request_key, response, "
      "status")],
)
def test_a_foreign_sqlite_file_is_named_and_left_unchanged(tmp_path: Path, schema: str, found: str) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=2)
    out = tmp_path / "out"
    out.mkdir()
    store = out / "run.sqlite"
    with sqlite3.connect(store) as conn:
        conn.execute(schema)
    before = _tables(store)
    args = ["run", "--benchmark", "vsibench", "--data", str(root), "--out", str(out), "--no-progress",
            "--model", "chance-random"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: {store}: an SQLite file that is not a spatialbench run store ({found}); nothing in it was "
        "changed; choose another --out or move the file away"]
    assert _tables(store) == before  # no table of ours added to the user's database
    assert sorted(p.name for p in out.iterdir()) == ["run.sqlite"]  # no config.json or scores beside it


def test_a_store_of_ours_is_still_resumed(tmp_path: Path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=2)
    args = ["run", "--benchmark", "vsibench", "--data", str(root), "--out", str(tmp_path / "out"),
            "--no-progress", "--model", "chance-frequency"]
    assert CliRunner().invoke(app, args).exit_code == 0
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0 and "2 items: 2 already answered, 0 answered now" in again.output
