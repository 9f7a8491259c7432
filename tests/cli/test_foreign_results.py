"""Issue 26: a foreign result file that yields nothing says what it holds and what was expected.

Each file is made from VLMEvalKit's real prediction table (../shared/data/vlmevalkit, 61 rows, columns
``index ... prediction``) as people mangle it: saved with the predictions on a second sheet, with the id
column renamed, semicolon-separated (Excel in many locales), or with the ids as floats (pandas).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.shared_data import require_file

EXPECTED = ("expected an id column (id or index; else scene_name and question) and a response column "
            "(response, prediction, model_answer or *_answer)")


@pytest.fixture
def table(shared_data: Path) -> pd.DataFrame:
    path = require_file(shared_data / "vlmevalkit" / "noisy_loopback_VSI-Bench_32frame.xlsx")
    return pd.read_excel(path, dtype=str, keep_default_na=False)[["index", "prediction"]]


@pytest.fixture
def annotations(shared_data: Path) -> Path:
    return require_file(shared_data / "vlmevalkit" / "demo_seed5_annotations.jsonl")


def _last_line(annotations: Path, predictions: Path, code: int = 1) -> str:
    """The error line; exit 1 (NothingScoredError: rows read, none matched), 2 (no usable column)."""
    args = ["score", "-b", "vsibench", "-a", str(annotations), "-p", str(predictions)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == code, result.output
    assert "| all |" not in result.output
    if code == 2:  # one line, no list of skipped rows (issue 24)
        assert result.output.count("\n") == 1
    return result.stderr.splitlines()[-1]


def test_predictions_on_another_sheet(tmp_path: Path, table: pd.DataFrame, annotations: Path) -> None:
    path = tmp_path / "results.xlsx"
    with pd.ExcelWriter(path) as book:
        pd.DataFrame({"note": ["summary"]}).to_excel(book, sheet_name="Sheet1", index=False)
        table.to_excel(book, sheet_name="preds", index=False)
    assert _last_line(annotations, path, 2) == (
        f"error: no usable prediction column in {path}: read 1 row(s) from "
        f"results.xlsx sheet 'Sheet1' (other sheets: preds); {EXPECTED}; found: note")


def test_a_renamed_id_column(tmp_path: Path, table: pd.DataFrame, annotations: Path) -> None:
    path = tmp_path / "results.csv"
    table.rename(columns={"index": "qid"}).to_csv(path, index=False)
    assert _last_line(annotations, path, 2) == (
        f"error: no usable prediction column in {path}: read 61 row(s) from "
        f"results.csv; {EXPECTED}; found: qid, prediction")


def test_a_semicolon_separated_file(tmp_path: Path, table: pd.DataFrame, annotations: Path) -> None:
    path = tmp_path / "results.csv"
    table.to_csv(path, sep=";", index=False)
    assert _last_line(annotations, path, 2) == (
        f"error: no usable prediction column in {path}: read 61 row(s) from "
        f"results.csv; {EXPECTED}; found: index;prediction (one column: a semicolon-separated file? save it "
        "comma-separated)")


def test_float_ids_from_pandas(tmp_path: Path, table: pd.DataFrame, annotations: Path) -> None:
    path = tmp_path / "results.csv"
    table.astype({"index": float}).to_csv(path, index=False)
    assert path.read_text().splitlines()[1].startswith("0.0,")
    assert _last_line(annotations, path) == (
        f"error: none of the 61 predictions in {path} matches an item of {annotations} (ids such as 0.0, "
        "1.0, 10.0, 11.0, 12.0); the ids are written as decimals (0.0, 1.0, ...): write the id column as "
        "whole numbers (pandas turns an integer column with empty cells into floats); nothing was scored")
