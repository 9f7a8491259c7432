"""Newcomer finding: ``repr(open_run(...))`` dumped the whole ``config.json`` record."""

from __future__ import annotations

from pathlib import Path

from spatialbench.runs.folder import RunFolder


def test_repr_names_the_folder_not_the_record(tmp_path: Path) -> None:
    record = {"config": {"data": {"benchmark": "vsibench", "path": "x" * 5000}}}
    text = repr(RunFolder(tmp_path / "run", record, "run"))
    assert text == f"RunFolder(path={tmp_path / 'run'!r}, name='run')"
