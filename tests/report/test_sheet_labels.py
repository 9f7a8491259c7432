"""Contact-sheet tile labels: still images by the names the questions use (issue 22 newcomer round).

A ReMindView sheet read "v1 0.0 s, v2 0.0 s, v3 0.0 s" while its question says "frame0 ... frame2".
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.mmsi_remindview_fixtures import build_remindview
from spatialbench.benchmarks import get_benchmark
from spatialbench.report.sheets import SheetMaker


def test_image_tiles_are_labelled_by_frame_name_without_times(tmp_path: Path) -> None:
    data = build_remindview(tmp_path / "data")
    item = next(iter(get_benchmark("remindview").load_items(data)))
    names = [ref.name for ref in item.media]
    assert len(names) > 1 and all(name and name.startswith("frame") for name in names)
    stored = [{"frames": [0], "timestamps": [0.0]} for _ in item.media]  # as a run stores a still image
    labels = [label for _, label in SheetMaker(data)._tiles(item, stored)]
    assert labels == names
