"""Each benchmark's format module writes what its loader reads: write → load gives the same items, and a
second write the same bytes."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mmsi_remindview_fixtures import build_mmsi, build_remindview

from spatialbench.benchmarks import get_benchmark
from spatialbench.records.item import Item
from support.vsi_data import make_vsibench


def _vsibench(root: Path) -> Path:
    make_vsibench(root, n_videos=2, per_video=3)
    return root


#: benchmark → (build a data folder, the annotation files in it)
CASES: dict[str, tuple[Callable[[Path], Any], tuple[str, ...]]] = {
    "vsibench": (_vsibench, ("test.jsonl",)),
    "mmsi-video": (build_mmsi, ("mmsivideo.json",)),
    "remindview": (build_remindview, ("*.csv", "*.parquet")),
}


def _media_only(source: Path, target: Path, annotations: tuple[str, ...]) -> Path:
    """Copy ``source`` to ``target`` without its annotation files (the media stay, so items compare whole)."""
    shutil.copytree(source, target)
    for pattern in annotations:
        for path in target.glob(pattern):
            path.unlink()
    return target


def _portable(items: list[Item], root: Path) -> list[dict[str, Any]]:
    """Items as dicts with media paths relative to ``root`` and unset (None) metadata left out."""
    found = []
    for item in items:
        data = item.model_dump()
        data["metadata"] = {k: v for k, v in data["metadata"].items() if v is not None}
        for ref in data["media"]:
            ref["path"] = os.path.relpath(ref["path"], root) if os.path.isabs(ref["path"]) else ref["path"]
        found.append(data)
    return found


@pytest.mark.parametrize("name", sorted(CASES))
def test_write_then_load_gives_the_same_items_and_files(name: str, tmp_path: Path) -> None:
    spec = get_benchmark(name)
    build, annotations = CASES[name]
    original = build(tmp_path / "data")
    items = spec.load_items(original)
    assert items and not items.errors
    assert spec.write is not None
    copy = _media_only(original, tmp_path / "copy", annotations)
    written = spec.write(list(items), copy)
    reloaded = spec.load_items(copy)
    assert not reloaded.errors
    assert _portable(list(reloaded), copy.resolve()) == _portable(list(items), original.resolve())
    again = _media_only(copy, tmp_path / "again", annotations)
    rewritten = spec.write(list(reloaded), again)
    assert [p.name for p in rewritten] == [p.name for p in written]
    assert [p.read_bytes() for p in rewritten] == [p.read_bytes() for p in written]


def test_vsibench_parquet_and_jsonl_hold_the_same_records(tmp_path: Path) -> None:
    from spatialbench.benchmarks.vsibench.format import item_to_record, write_parquet

    spec = get_benchmark("vsibench")
    items = list(spec.load_items(_vsibench(tmp_path / "data")))
    write_parquet(items, tmp_path / "test.parquet")
    from_parquet = spec.load_items(tmp_path / "test.parquet")
    assert [item_to_record(i) for i in from_parquet] == [item_to_record(i) for i in items]


def test_remindview_rows_keep_the_release_columns(tmp_path: Path) -> None:
    from spatialbench.benchmarks.remindview.format import COLUMNS, item_to_row

    items = get_benchmark("remindview").load_items(build_remindview(tmp_path / "data"))
    row = item_to_row(items[0])
    assert tuple(row) == COLUMNS
    assert row["ground_truth"] == items[0].metadata["answer_text"]
    assert row["choices"].split(", ")[ord(items[0].ground_truth) - ord("A")] == row["ground_truth"]
