"""A ReVSI numerical question whose ground truth is no number ("many") is a data error for ``baseline``, as
for ``run`` and ``score``: listed and left out (chance-frequency stopped with "no ground truth is a positive
number" when it was its task's only question)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from benchmarks.test_revsi import write_release
from spatialbench.cli.main import app


@pytest.mark.parametrize("model", ["chance-frequency", "chance-frequency-restricted"])
def test_a_word_as_numerical_truth_is_a_listed_data_error(model: str, tmp_path: Path) -> None:
    data = write_release(tmp_path / "data")
    table = data / "all_frame" / "test-00000-of-00001.parquet"
    frame = pd.read_parquet(table)
    frame.loc[3, "ground_truth"] = "many"  # the only room_size_estimation question
    frame.to_parquet(table, index=False)
    result = CliRunner().invoke(app, ["baseline", "-b", "revsi", "-a", str(data), "-m", model])
    assert result.exit_code == 0, result.output
    assert "Data errors (1 items left out): item 3: ground truth 'many' is not a number" in result.output
    assert "no items for: Obj. Size, Room Size" in result.output
