"""stress-test with types smaller than k folds: the others are reported, each small one is a line.

Before, 3DSRBench's and EmbSpatial-Bench's fixtures printed only an empty ``overall`` row: the types the
fold splitters could not split vanished, and a type that only the grouped folds could split was dropped
from the table although it counted in the grouped overall.
"""

from __future__ import annotations

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
    assert "| orientation_on_the_left | 4 | 50.0 | 50.0 | 0.0-100.0 | 50.0 | 0.0-100.0 |" in lines
    assert "| height_higher | 2 | 50.0 | - | | 0.0 | 0.0-0.0 |" in lines  # grouped only: still a row
    why = "(random folds: every answer occurs fewer than k=2 times (most often: 1))"
    assert [line for line in lines if "not scored" in line] == [
        f"{task} not scored with k=2 {why}"
        for task in ("height_higher", "location_above", "multi_object_facing")
    ]
    assert "| overall | 4 | 50.0 | 50.0 | | 12.5 | |" in lines  # grouped: mean of 50, 0, 0, 0
