"""stress-test with types smaller than k folds: the others are reported, each small one is a line.

Before, 3DSRBench's and EmbSpatial-Bench's fixtures printed only an empty ``overall`` row: the types the
fold splitters could not split vanished, and a type that only the grouped folds could split was dropped
from the table although it counted in the grouped overall.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.test_threedsr import _kit_rows
from spatialbench.cli.main import app
from support.image_tables import write_tsv


def test_small_types_get_a_line_the_others_a_row(tmp_path: Path) -> None:
    data = write_tsv(_kit_rows(), tmp_path / "kit" / "3dsrbench_v1_vlmevalkit_circular.tsv")
    args = ["stress-test", "-b", "3dsrbench", "-d", str(data), "-o", str(tmp_path / "out"), "--k", "2"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # orientation: 4 rows, answers A, B, B, A → both folds; the others have one row per answer (random
    # folds need an answer twice) but 2-3 scenes (grouped folds need 2)
    assert ("| orientation_on_the_left | 4 | 50.0 | 50.0 | 0.0-100.0 | 50.0 | 0.0-100.0 | passed (2 random, "
            "2 grouped folds) |") in lines
    # grouped only: still a row, "-" where the random folds skipped it
    assert "| height_higher | 2 | 50.0 | - | - | 0.0 | 0.0-0.0 | passed (2 grouped folds) |" in lines
    why = "(random folds: every answer occurs fewer than k=2 times (most often: 1))"
    assert [line for line in lines if "not scored" in line] == [
        f"{task} not scored with k=2 {why}"
        for task in ("height_higher", "location_above", "multi_object_facing")
    ]
    assert "| overall | 4 | 50.0 | 50.0 | - | 12.5 | - | - |" in lines  # grouped: mean of 50, 0, 0, 0


def test_streaming_count_is_refused_with_the_reason(tmp_path: Path) -> None:
    """A streaming count question's answer is a list (a count per query time): no one answer to learn.

    Before: ``0 items in 0 rows`` and exit 0, an empty table.
    """
    data = tmp_path / "count.jsonl"
    rows = [{"id": 10 + k, "video_path": f"videos/c{k}.mp4", "question": "How many chairs so far?",
             "answers": [3, 5, 8, 12], "split": "10mins_streaming"} for k in range(3)]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    args = ["stress-test", "-b", "vsi-super-count-streaming", "-d", str(data), "-o", str(tmp_path / "o"),
            "--k", "2"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines()[-1] == (
        "error: stress-test does not apply to these 3 questions: none has one number or option as its "
        "answer (count_streaming, e.g. item 10); the forest learns one answer per question")
    assert not (tmp_path / "o").exists()
