"""A full disk while ``score --out`` / ``breakdown --out`` / ``score --run --out`` write their files.

The whole set (scores.json, items.csv, scores.md; breakdown.md/.csv/.json) is written to temporaries first
and renamed only when every one was written: the folder holds the earlier scoring or the new one, never a
mix, no temporary and no 0-byte file; the command prints one line naming the file and exits 2.
"""

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.records.files import WriteError, atomic_write_files

RECORDS = [{"id": k, "dataset": "scannet", "scene_name": "s", "question_type": "object_counting",
            "question": f"How many chairs in room {k}?", "ground_truth": "2"} for k in (1, 2)]


class _FillingFile:
    """A text file on a disk with room for ``room`` more characters: the write past them raises ENOSPC."""

    def __init__(self, handle: Any, room: int) -> None:
        self.handle, self.room = handle, room

    def write(self, text: str) -> int:
        if len(text) > self.room:
            self.handle.write(text[:self.room])
            self.room = 0
            raise OSError(28, "No space left on device")
        self.room -= len(text)
        return int(self.handle.write(text))

    def __enter__(self) -> "_FillingFile":
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()


def _full_disk_on(monkeypatch: pytest.MonkeyPatch, nth: int, keep: int = 10) -> list[str]:
    """From the ``nth`` temporary (1-based) on, write ``keep`` characters, then raise ENOSPC.

    Temporaries written whole (``Path.write_text``) and in chunks (``Path.open``, items.csv) alike.
    """
    original, opened = Path.write_text, Path.open
    written: list[str] = []
    whole: list[Path] = []  # the file write_text is writing (it opens the file itself)

    def full_disk(self: Path, text: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        whole.append(self)
        try:
            if self.name.endswith(".part"):
                written.append(self.name)
                if len(written) >= nth:
                    original(self, text[:keep], *args, **kwargs)
                    raise OSError(28, "No space left on device")
            return original(self, text, *args, **kwargs)
        finally:
            whole.pop()

    def filling(self: Path, mode: str = "r", *args, **kwargs):  # type: ignore[no-untyped-def]
        handle = opened(self, mode, *args, **kwargs)
        if not (self.name.endswith(".part") and "w" in mode) or self in whole:
            return handle
        written.append(self.name)
        return _FillingFile(handle, keep) if len(written) >= nth else handle

    monkeypatch.setattr(Path, "write_text", full_disk)
    monkeypatch.setattr(Path, "open", filling)
    return written


def _inputs(tmp_path: Path, answer: str) -> tuple[Path, Path]:
    annotations = tmp_path / "a.jsonl"
    annotations.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    predictions = tmp_path / f"p{answer}.jsonl"
    predictions.write_text("".join(json.dumps({"id": r["id"], "response": answer}) + "\n" for r in RECORDS))
    return annotations, predictions


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_set_writer_renames_nothing_until_every_file_is_written(tmp_path, monkeypatch):
    atomic_write_files({tmp_path / "a.txt": "old a", tmp_path / "b.txt": "old b"})
    _full_disk_on(monkeypatch, nth=2)
    with pytest.raises(WriteError) as caught:
        atomic_write_files({tmp_path / "a.txt": "new a", tmp_path / "b.txt": "new b"})
    assert str(caught.value) == f"cannot write {tmp_path / 'b.txt'}: No space left on device"
    assert isinstance(caught.value, OSError) and caught.value.errno == 28
    assert _snapshot(tmp_path) == {"a.txt": b"old a", "b.txt": b"old b"}  # a.txt not renamed either


@pytest.mark.parametrize("nth", [1, 2, 3])
def test_score_out_on_a_full_disk_keeps_the_earlier_scoring_whole(tmp_path, monkeypatch, nth):
    annotations, right = _inputs(tmp_path, "2")
    _, wrong = _inputs(tmp_path, "9")
    out = tmp_path / "s"
    result = CliRunner().invoke(app, ["score", "-a", str(annotations), "-p", str(right), "--out", str(out)])
    assert result.exit_code == 0, result.output
    before = _snapshot(out)
    assert json.loads(before["scores.json"])["overall"] == 100.0
    _full_disk_on(monkeypatch, nth)
    result = CliRunner().invoke(app, ["score", "-a", str(annotations), "-p", str(wrong), "--out", str(out)])
    name = ("scores.json", "items.csv", "scores.md")[nth - 1]
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == f"error: cannot write {out / name}: No space left on device"
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    assert _snapshot(out) == before  # no new scores.json beside the old items.csv


def test_breakdown_out_on_a_full_disk_leaves_no_empty_file(tmp_path, monkeypatch):
    annotations, predictions = _inputs(tmp_path, "2")
    out = tmp_path / "b"
    _full_disk_on(monkeypatch, nth=2, keep=0)
    result = CliRunner().invoke(app, ["breakdown", "-b", "vsibench", "-a", str(annotations), "-p",
                                      str(predictions), "--out", str(out)])
    assert result.exit_code == 2, result.output
    last = result.output.splitlines()[-1]
    assert last == f"error: cannot write {out / 'breakdown.csv'}: No space left on device"
    assert list(out.iterdir()) == []  # no 0-byte breakdown.csv, no breakdown.md alone, no temporary


def test_score_run_out_on_a_full_disk_is_one_line_and_exit_2(tmp_path, monkeypatch):
    annotations = tmp_path / "test.jsonl"
    annotations.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    run_file = tmp_path / "run.yaml"
    run_file.write_text(f"out: {tmp_path / 'run'}\ndata: {{benchmark: vsibench, path: {annotations}}}\n"
                        "model: {name: chance-frequency}\n")
    result = CliRunner().invoke(app, ["run", "--config", str(run_file), "--no-progress"])
    assert result.exit_code == 0, result.output
    run_files = _snapshot(tmp_path / "run")
    _full_disk_on(monkeypatch, nth=1)
    out = tmp_path / "s2"
    result = CliRunner().invoke(app, ["score", "--run", str(tmp_path / "run"), "--out", str(out)])
    assert result.exit_code == 2, result.output
    last = result.output.splitlines()[-1]
    assert last == f"error: cannot write {out / 'scores.json'}: No space left on device"
    assert list(out.iterdir()) == [] and _snapshot(tmp_path / "run") == run_files



def test_score_with_sub_bench_writes_scores_and_breakdown_as_one_set(tmp_path, monkeypatch):
    from benchmarks.mmsi_remindview_fixtures import build_mmsi, mmsi_responses

    data = build_mmsi(tmp_path / "mmsi")
    predictions = tmp_path / "p.jsonl"
    lines = [json.dumps({"id": k, "response": v}) + "\n" for k, v in mmsi_responses().items()]
    predictions.write_text("".join(lines))
    out = tmp_path / "s"
    args = ["score", "-b", "mmsi-video", "-a", str(data), "-p", str(predictions), "--sub-bench", "grounding",
            "--out", str(out)]
    written = _full_disk_on(monkeypatch, nth=4)  # scores.json, items.csv, scores.md written; breakdown.md not
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert written[3] == "breakdown.md.part"
    assert list(out.iterdir()) == []  # no new score files beside missing breakdown files
    monkeypatch.undo()
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "breakdown.csv", "breakdown.json", "breakdown.md", "items.csv", "scores.json", "scores.md"]
