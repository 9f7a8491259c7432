"""Answers holding line breaks or NUL keep one CSV row per item in every writer and reader (issue 26, item 2).

The failing input: a model answer that is a bare carriage return. ``csv.writer(lineterminator="\\n")``
left it unquoted, readers split the row, and 20 items read back as 28 rows.
"""

import csv

import pandas as pd

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.remindview import format as rv_format
from spatialbench.records.item import AnswerKind, Item
from spatialbench.runs.folder import RunFolder
from spatialbench.scoring import score_items, write_scores
from spatialbench.scoring.prediction_tables import read_table
from spatialbench.scoring.render import Grid, to_csv

RULES = get_benchmark("vsibench").scoring
HOSTILE = {"1": "\r", "2": "2\n", "3": "3\r\n", "4": "4\x00", "5": "\r5\r", "6": "2"}
WRITTEN = {**HOSTILE, "1": "'\r", "5": "'\r5\r"}  # a leading \r is escaped against spreadsheet formulas


def _items() -> list[Item]:
    return [Item(id=i, benchmark="vsibench", task="object_counting", question="How many chairs?",
                 ground_truth="2", answer_kind=AnswerKind.NUMERICAL, dataset="scannet", scene_id="s")
            for i in HOSTILE]


def test_items_csv_keeps_one_row_per_item_for_every_reader(tmp_path):
    result = score_items(_items(), HOSTILE, RULES, extract="official")
    paths = write_scores(result, tmp_path)
    rows = RunFolder(path=tmp_path, record={}).rows  # the reader of compare, serve, analyses
    assert list(rows["id"]) == list(HOSTILE)
    assert dict(zip(rows["id"], rows["prediction"], strict=True)) == WRITTEN
    # against 2: "2" → MRA 1; "3" (relative error 0.5, within only theta = 0.5 of ten) → 0.1; "4" → 0
    assert dict(zip(rows["id"], rows["score"], strict=True)) == {
        "1": 0.0, "2": 1.0, "3": 0.1, "4": 0.0, "5": 0.0, "6": 1.0}
    with paths["items"].open(newline="", encoding="utf-8") as handle:
        assert [r["prediction"] for r in csv.DictReader(handle)] == list(WRITTEN.values())
    records = [r for r in read_table(paths["items"]) if isinstance(r, tuple)]
    assert [r[2]["prediction"] for r in records] == list(WRITTEN.values())


def test_grid_csv_quotes_a_bare_carriage_return():
    text = to_csv(Grid(("a\r", "b"), (("x\ry", (1.5, "\r")),)))
    assert text == '"","a\r","b"\n"x\ry",1.5,"\'\r"\n'  # a leading \r is escaped against formulas
    assert list(csv.reader(text.splitlines(keepends=True))) == [["", "a\r", "b"], ["x\ry", "1.5", "'\r"]]


def test_remindview_table_keeps_a_carriage_return_in_a_question(tmp_path):
    questions = ["left\ror right?", "a\nb", "c\r\nd", "nul\x00"]
    path = tmp_path / "qa.csv"
    rv_format.write_table(({"query": q} for q in questions), path, columns=("query",))
    # the loader's own reading (dtype=str, keep_default_na=False)
    assert list(pd.read_csv(path, dtype=str, keep_default_na=False)["query"]) == questions
