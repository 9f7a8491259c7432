"""Score files written for spreadsheets and full disks: formula cells escaped, no truncated file left."""

import csv
import json

import pytest

from spatialbench.benchmarks import get_benchmark
from spatialbench.records.item import AnswerKind, Item
from spatialbench.scoring import output, score_items, write_scores
from spatialbench.scoring.items_file import items_csv_text
from spatialbench.scoring.render import Grid, to_csv

RULES = get_benchmark("vsibench").scoring
HOSTILE = {"1": "=HYPERLINK(\"http://x\")", "2": "+1", "3": "-5", "4": "@SUM(1)", "5": "2"}


def _items():
    return [Item(id=i, benchmark="vsibench", task="object_counting", question="How many chairs?",
                 ground_truth="2", answer_kind=AnswerKind.NUMERICAL, dataset="scannet", scene_id="s")
            for i in HOSTILE]


def test_items_csv_escapes_formula_cells_and_keeps_every_row(tmp_path):
    result = score_items(_items(), HOSTILE, RULES, extract="official")
    paths = write_scores(result, tmp_path)
    with paths["items"].open(newline="", encoding="utf-8") as handle:
        rows = {r["id"]: r for r in csv.DictReader(handle)}
    assert {i: r["prediction"] for i, r in rows.items()} == {
        "1": "'=HYPERLINK(\"http://x\")", "2": "'+1", "3": "'-5", "4": "'@SUM(1)", "5": "2"}
    # numbers stay numbers: "-5" read by the official rule is the float -5.0 (MRA 0), written unescaped
    assert rows["3"]["extracted"] == "-5.0" and rows["3"]["score"] == "0.0"
    assert rows["5"]["score"] == "1.0"


def test_breakdown_csv_escapes_formula_labels():
    grid = Grid(("=cmd", "ok"), (("@row", (1.5, "-x")),))
    assert to_csv(grid) == '"","\'=cmd","ok"\n"\'@row",1.5,"\'-x"\n'


def test_a_failed_write_leaves_the_earlier_file_and_no_partial_one(tmp_path, monkeypatch):
    result = score_items(_items(), HOSTILE, RULES, extract="official")
    paths = write_scores(result, tmp_path)
    before = paths["items"].read_bytes()

    def full_disk(rows, handle):  # items.csv is written in chunks: the disk fills after its first bytes
        handle.write(items_csv_text(rows)[:10])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output, "write_items_csv", full_disk)
    with pytest.raises(OSError, match="No space left"):
        write_scores(result, tmp_path)
    assert paths["items"].read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["items.csv", "scores.json", "scores.md"]
    # "+1" is 1.0 for the official rule: (0 + MRA(1 for 2) 0.1 + 0 + 0 + 1) / 5
    assert json.loads(paths["scores"].read_text())["overall"] == pytest.approx(22.0)


CONTROL = {"1": "\r", "2": "2 \r3", "3": "a\r\nb", "4": "x\ny", "5": "nul\x00here"}


def test_answers_with_cr_lf_crlf_nul_keep_one_row_per_item(tmp_path):
    # issue 26 item 2: a field holding only "\r" was written unquoted; readers saw 28 rows for 20 items
    import pandas as pd

    result = score_items(_items(), CONTROL, RULES, extract="official")
    paths = write_scores(result, tmp_path)
    with paths["items"].open(newline="", encoding="utf-8") as handle:
        rows = {r["id"]: r["prediction"] for r in csv.DictReader(handle)}
    assert rows == {**CONTROL, "1": "'\r"}  # a cell starting with "\r" is spreadsheet-escaped as well
    frame = pd.read_csv(paths["items"], dtype=str, keep_default_na=False)
    assert list(frame["id"]) == list(CONTROL)
    assert list(frame["prediction"])[1:4] == list(CONTROL.values())[1:4]


def test_grid_csv_quotes_a_bare_carriage_return():
    text = to_csv(Grid(("a",), (("r\r", ("\r",)),)))
    assert list(csv.reader(text.splitlines(keepends=True))) == [["", "a"], ["r\r", "'\r"]]
