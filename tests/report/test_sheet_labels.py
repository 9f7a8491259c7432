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


def test_video_tiles_carry_the_transcript_s_times(tmp_path: Path) -> None:
    from support.transcript_runs import room_data

    data = room_data(tmp_path / "data")
    item = next(iter(get_benchmark("vsibench").load_items(data)))
    stored = [{"frames": [0, 2, 4, 7], "timestamps": [0.0, 2 / 30, 4 / 30, 7 / 30]}]  # uniform:4, 30 fps
    labels = [label for _, label in SheetMaker(data)._tiles(item, stored)]
    # as the thumbnails above the sheet say them: two frames 1/15 s apart are not both "0.1 s"
    assert labels == ["0.00 s", "0.07 s", "0.13 s", "0.23 s"]
