"""Newcomer findings on run folders: a repr naming the folder, a config.json that is no object."""

from __future__ import annotations

from pathlib import Path

from spatialbench.runs.folder import RunFolder


def test_repr_names_the_folder_not_the_record(tmp_path: Path) -> None:
    record = {"config": {"data": {"benchmark": "vsibench", "path": "x" * 5000}}}
    text = repr(RunFolder(tmp_path / "run", record, "run"))
    assert text == f"RunFolder(path={tmp_path / 'run'!r}, name='run')"


def test_a_config_json_holding_a_list_is_named_in_words(tmp_path: Path) -> None:
    # newcomer finding: score --run on a config.json holding [] printed "list indices must be integers"
    import pytest

    from spatialbench.runs.folder import RunFolderError, open_run

    (tmp_path / "config.json").write_text("[]")
    with pytest.raises(RunFolderError, match=r"config.json: not a .*JSON list, not an object"):
        open_run(tmp_path)
