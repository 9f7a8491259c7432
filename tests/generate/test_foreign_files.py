"""``generate synthetic`` and ``demo`` never overwrite a user's files in an existing ``--out`` (issue 26).

Both refuse, as ``generate remindview`` does (:mod:`spatialbench.generate.written`), a folder holding
files they did not record writing under the names they write — one line naming them, exit 2, every file
left as it was and nothing written — and replace or remove only what they recorded.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app

TINY = ["--seed", "0", "--seconds", "1", "--fps", "4", "--width", "32", "--height", "24"]


def _synthetic(out: Path, *extra: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(
        app, ["generate", "synthetic", "--out", str(out), "--scenes", "1", *TINY, *extra]
    )
    assert "Traceback" not in result.output
    return result.exit_code, result.stderr.splitlines()


def _demo(out: Path, scenes: int = 1) -> tuple[int, list[str]]:
    args = ["demo", "--out", str(out), "--scenes", str(scenes), "--seconds", "2"]
    result = CliRunner().invoke(app, args)
    assert "Traceback" not in result.output
    return result.exit_code, [line for line in result.stderr.splitlines() if not line.startswith("[demo]")]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.mark.parametrize("extra", [(), ("--render-only",)])
def test_synthetic_refuses_a_users_question_files(tmp_path: Path, extra: tuple[str, ...]) -> None:
    (tmp_path / "test.jsonl").write_text('{"id": "mine"}\n')
    (tmp_path / "manifest.json").write_text('{"mine": true}\n')
    before = _snapshot(tmp_path)
    code, lines = _synthetic(tmp_path, *extra)
    assert (code, lines) == (
        2,
        [
            f"error: {tmp_path} holds files generate synthetic did not write "
            "(manifest.json, test.jsonl); move them or choose another --out"
        ],
    )
    assert _snapshot(tmp_path) == before and sorted(p.name for p in tmp_path.iterdir()) == [
        "manifest.json",
        "test.jsonl",
    ]


def test_synthetic_refuses_a_remindview_folder(tmp_path: Path) -> None:
    """A ReMindView folder's manifest.json was overwritten by the synthetic benchmark's."""
    (tmp_path / "manifest.json").write_text(json.dumps({"settings": {"preset": "paper"}, "questions": 12}))
    (tmp_path / "object_centric_qa.csv").write_text("question,answer\n")
    (tmp_path / "remindview_files.txt").write_text(
        "# files written by spatialbench generate remindview (a re-run removes these)\nmanifest.json\n"
    )
    before = _snapshot(tmp_path)
    code, lines = _synthetic(tmp_path)
    assert code == 2 and lines == [
        f"error: {tmp_path} holds files generate synthetic did not write "
        "(manifest.json); move them or choose another --out"
    ]
    assert _snapshot(tmp_path) == before


def test_synthetic_refuses_a_users_video_and_scene_file_named_like_this_runs(tmp_path: Path) -> None:
    (tmp_path / "synthetic").mkdir()
    (tmp_path / "synthetic" / "synth_0000_000.mp4").write_bytes(b"my own video")
    (tmp_path / "scenes" / "synth_0000_000").mkdir(parents=True)
    (tmp_path / "scenes" / "synth_0000_000" / "scene.json").write_text("{}")
    (tmp_path / "notes.jsonl").write_text("{}\n")  # the loader would read it as annotations
    code, lines = _synthetic(tmp_path)
    assert code == 2 and lines == [
        f"error: {tmp_path} holds files generate synthetic did not write (notes.jsonl, "
        "scenes/synth_0000_000/scene.json, synthetic/synth_0000_000.mp4); move them or choose another --out"
    ]
    assert (tmp_path / "synthetic" / "synth_0000_000.mp4").read_bytes() == b"my own video"


def test_synthetic_reruns_into_its_own_folder_and_keeps_other_files(tmp_path: Path) -> None:
    assert _synthetic(tmp_path)[0] == 0
    (tmp_path / "synthetic" / "synth_0009_000.mp4").write_bytes(b"another seed's video, mine")
    (tmp_path / "notes.txt").write_text("mine")
    assert _synthetic(tmp_path)[0] == 0
    code, _ = _synthetic(tmp_path, "--render-only")  # removes its own questions, nothing else
    assert code == 0 and not (tmp_path / "test.jsonl").exists() and not (tmp_path / "README.md").exists()
    assert (tmp_path / "synthetic" / "synth_0009_000.mp4").read_bytes() == b"another seed's video, mine"
    assert (tmp_path / "notes.txt").read_text() == "mine"
    journal = (tmp_path / "synthetic_files.txt").read_text().splitlines()
    assert "test.jsonl" not in journal and "synthetic/synth_0000_000.mp4" in journal


@pytest.mark.parametrize(
    "mine", ["summary.json", "routes.jsonl", "contact_sheets/synth_0000_000.jpg", "benchmark/test.parquet"]
)
def test_demo_refuses_a_users_file_where_it_writes(tmp_path: Path, mine: str) -> None:
    out = tmp_path / "out"
    (out / mine).parent.mkdir(parents=True, exist_ok=True)
    (out / mine).write_bytes(b"mine")
    before = _snapshot(out)
    code, lines = _demo(out)
    folder, name = (out / "benchmark", "test.parquet") if mine.startswith("benchmark/") else (out, mine)
    who = "generate synthetic" if mine.startswith("benchmark/") else "demo"
    assert (code, lines) == (
        2,
        [f"error: {folder} holds files {who} did not write ({name}); move them or choose another --out"],
    )
    assert _snapshot(out) == before


def test_demo_reruns_and_removes_only_what_it_recorded(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert _demo(out, scenes=2)[0] == 0
    (out / "contact_sheets" / "mine.jpg").write_bytes(b"mine")
    assert _demo(out, scenes=1)[0] == 0
    assert sorted(p.name for p in (out / "contact_sheets").iterdir()) == ["mine.jpg", "synth_0000_000.jpg"]
    journal = (out / "demo_files.txt").read_text().splitlines()
    assert journal[1:] == [
        "chance_baselines.md",
        "contact_sheets/synth_0000_000.jpg",
        "routes.jsonl",
        "summary.json",
    ]
