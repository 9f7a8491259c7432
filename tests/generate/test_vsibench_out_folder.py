"""``generate vsibench --out`` refuses a user's or another generator's files where it writes (issue 27,
newcomer round: it silently replaced a ReMindView folder's manifest.json and README.md, and a user's own)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from generate.test_pipeline import synthetic_room
from spatialbench.cli.main import app


def _generate(meta: Path, out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["generate", "vsibench", "--meta-info", str(meta), "--out", str(out),
                                      "--tasks", "object_counting"])
    return result.exit_code, result.output


def test_a_users_files_are_refused_and_kept_and_its_own_rerun_works(tmp_path: Path) -> None:
    meta = synthetic_room(tmp_path)
    out = tmp_path / "mine"
    out.mkdir()
    (out / "README.md").write_text("# my notes\n")
    (out / "manifest.json").write_text('{"mine": 1}\n')
    (out / "other.jsonl").write_text("{}\n")
    code, output = _generate(meta, out)
    lines = [line for line in output.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1, output
    assert all(name in lines[0] for name in ("README.md", "manifest.json", "other.jsonl"))
    assert (out / "README.md").read_text() == "# my notes\n"
    assert json.loads((out / "manifest.json").read_text()) == {"mine": 1}
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "manifest.json", "other.jsonl"]
    fresh = tmp_path / "fresh"
    assert _generate(meta, fresh)[0] == 0 and _generate(meta, fresh)[0] == 0  # its own folder: re-run
    assert (fresh / "test.jsonl").is_file() and (fresh / "vsibench_files.txt").is_file()
    assert not (tmp_path / "nowhere").exists()
