"""A JSON file renamed ``.parquet`` is one line naming the file and saying it is not Parquet (issue 24).

pyarrow's own text ("Parquet magic bytes not found in footer. Either the file is corrupted or this is not a
parquet file.") used to be printed as it is, without the file's name for predictions.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks import test_cvbench
from spatialbench.cli.main import app

REASON = "not a Parquet file (it does not end in Parquet's PAR1 marker; JSON or CSV renamed .parquet?)"


def _breakdown(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["breakdown", *args])
    return result.exit_code, result.output


@pytest.fixture
def renamed(tmp_path: Path) -> Path:
    path = tmp_path / "predictions.parquet"
    path.write_text('{"id": "0", "prediction": "A"}\n')
    return path


def test_predictions(renamed: Path, tmp_path: Path) -> None:
    data = test_cvbench.write_release(tmp_path / "data")
    assert _breakdown("-a", str(data), "-p", str(renamed), "-b", "cvbench") == (
        2,
        f"error: {renamed}: {REASON}\n",
    )


def test_annotations(renamed: Path, tmp_path: Path) -> None:
    assert _breakdown("-a", str(renamed), "-p", str(renamed), "-b", "vsibench") == (
        2,
        f"error: {renamed}: {REASON}\n",
    )
    folder = tmp_path / "cv"
    folder.mkdir()
    table = folder / "test_2d.parquet"
    table.write_bytes(renamed.read_bytes())
    assert _breakdown("-a", str(folder), "-p", str(renamed), "-b", "cvbench") == (
        2,
        f"error: {table}: {REASON}\n",
    )
