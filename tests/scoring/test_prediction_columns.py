"""Predictions without an id or a response column: exit 2, one line naming the fields found (issue 24).

It used to list every row as skipped and exit 1 ("nothing was scored"), as for predictions that match
no item; ``breakdown`` printed all-zero tables from it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks import test_cvbench, test_embspatial
from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app

JSONL = "expected 'id' and a response field (response, prediction, model_answer or *_answer) on each line"
TABLE = ("expected an id column (id or index; else scene_name and question) and a response column "
         "(response, prediction, model_answer or *_answer)")


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return test_cvbench.write_release(tmp_path_factory.mktemp("cv") / "data")


def _ids(data: Path) -> list[str]:
    return [i.id for i in get_benchmark("cvbench").load_items(data)]


def _both(data: Path, predictions: Path, tmp_path: Path) -> list[tuple[int, str]]:
    common = ["-a", str(data), "-p", str(predictions), "-b", "cvbench"]
    runs = [["score", *common, "--out", str(tmp_path / "scored")], ["breakdown", *common]]
    return [(r.exit_code, r.output) for r in (CliRunner().invoke(app, args) for args in runs)]


@pytest.mark.parametrize(("fields", "found"), [(("id", "answer_text"), "id, answer_text"),
                                               (("question_id", "prediction"), "question_id, prediction")])
def test_jsonl_without_the_fields(fields: tuple[str, str], found: str, data: Path, tmp_path: Path) -> None:
    path = tmp_path / "predictions.jsonl"
    path.write_text("".join(f'{{"{fields[0]}": "{i}", "{fields[1]}": "A"}}\n' for i in _ids(data)))
    line = f"error: no usable prediction column in {path}: {JSONL}; found: {found}\n"
    assert _both(data, path, tmp_path) == [(2, line), (2, line)]
    assert not (tmp_path / "scored").exists()


def test_a_table_without_a_response_column(data: Path, tmp_path: Path) -> None:
    path = tmp_path / "predictions.csv"
    path.write_text("id,answer_text\n" + "".join(f"{i},A\n" for i in _ids(data)))
    line = (f"error: no usable prediction column in {path}: read 7 row(s) from predictions.csv; {TABLE}; "
            "found: id, answer_text\n")
    assert _both(data, path, tmp_path) == [(2, line), (2, line)]


def test_rows_with_the_fields_that_match_nothing_still_exit_1(data: Path, tmp_path: Path) -> None:
    path = tmp_path / "predictions.jsonl"
    path.write_text('{"id": "elsewhere:0", "response": "A"}\n')
    result = CliRunner().invoke(app, ["score", "-a", str(data), "-p", str(path), "-b", "cvbench"])
    assert result.exit_code == 1 and "none of the 1 predictions" in result.output


def test_an_annotation_json_given_as_predictions(tmp_path: Path) -> None:
    """EmbSpatial-Bench's release JSON as ``--predictions``: it printed 7 row errors and exited 1."""
    release = test_embspatial.write_release(tmp_path / "embspatial")
    result = CliRunner().invoke(app, ["score", "-b", "embspatial", "-a", str(release), "-p", str(release)])
    found = "data_source, scene_id, question_id, question, relation, image, answer_options, answer, objects"
    assert (result.exit_code, result.output) == (
        2, f"error: no usable prediction column in {release}: {JSONL}; found: {found}\n")
