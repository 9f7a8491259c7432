"""config.json (and every score / demo file) is written through a temporary renamed when complete: a full
disk leaves the earlier file, never a truncated or 0-byte one, and no temporary."""

import json
from pathlib import Path

import pytest

from spatialbench.records.files import atomic_write_text
from spatialbench.runs.config import DataConfig, ModelConfig, RunConfig
from spatialbench.runs.record import record_run
from spatialbench.runs.store import RunStore


def _full_disk_for(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    original = Path.write_text

    def full_disk(self: Path, text: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.name in names:
            original(self, text[:10], *args, **kwargs)
            raise OSError(28, "No space left on device")
        return original(self, text, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_disk)


def test_full_disk_keeps_the_earlier_config_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = RunConfig(out=str(tmp_path), data=DataConfig(benchmark="vsibench", path="data"),
                       model=ModelConfig(name="chance-random"))
    store = RunStore(tmp_path / "run.sqlite", [])
    record_run(store, config, {"backend": "none"}, {"baseline": "chance-random"}, [])
    before = (tmp_path / "config.json").read_bytes()
    assert json.loads(before)["config"]["model"]["name"] == "chance-random"
    _full_disk_for(monkeypatch, "config.json", "config.json.part")
    with pytest.raises(OSError, match="No space left"):
        record_run(store, config.updated("data", limit=3), {"backend": "none"}, {}, [])
    store.close()
    assert (tmp_path / "config.json").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json", "run.sqlite"]


def test_atomic_write_text_replaces_whole_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.md"
    atomic_write_text(path, "first\n")
    atomic_write_text(path, "second ünïcode\n")
    assert path.read_bytes() == "second ünïcode\n".encode()
    _full_disk_for(monkeypatch, "a.md.part")
    with pytest.raises(OSError):
        atomic_write_text(path, "third " * 100)
    assert path.read_text(encoding="utf-8") == "second ünïcode\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.md"]
