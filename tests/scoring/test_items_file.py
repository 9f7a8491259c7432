"""``items.csv`` written in chunks (issue 25, item 3): the bytes ``DataFrame.to_csv`` wrote before, and the
intervals each report asks for computed once per table.

The expected text was written by main before the change (52c02a5, pandas ``to_csv``) for these items: a
data error (ground truth 0: no score), a missing prediction, formula-like cells, pruned flags, an item
without a scene, an id beyond 64 bits.
"""

import gc

import numpy as np
import pandas as pd

from spatialbench.benchmarks import get_benchmark
from spatialbench.records.item import AnswerKind, Item
from spatialbench.scoring import score_items, uncertainty
from spatialbench.scoring.items_file import CSV_COLUMNS, items_csv_text
from spatialbench.scoring.row_frame import column
from spatialbench.scoring.uncertainty import table_ci

RULES = get_benchmark("vsibench").scoring
BIG = str(2**64 + 1)
EXPECTED = (
    '"id","task","prediction","extracted","score","rule","ground_truth","dataset","pruned","scene_id",'
    '"n_options"\n'
    '"1","object_counting","\'-2",-2.0,0.0,"robust:plain_number","2","scannet",True,"s",0\n'
    '"2","object_counting","3",3.0,"","robust:plain_number","0","scannet",False,"s",0\n'
    '"3","object_counting","","",0.0,"missing_prediction","2","scannet",False,"s",0\n'
    '"4","route_planning","\'=B","",0.0,"no_answer:not_found","B","scannet",True,"s",2\n'
    '"5","object_counting","nan","",0.0,"no_answer:not_found","3","scannet",False,"",0\n'
    '"18446744073709551617","object_counting","inf","","","no_answer:not_found","nan","scannet",False,"s",0\n'
)


def _item(item_id: str, truth: str, pruned: bool, options: tuple[str, ...] = ()) -> Item:
    kind = AnswerKind.MULTIPLE_CHOICE if options else AnswerKind.NUMERICAL
    return Item(id=item_id, benchmark="vsibench", task="route_planning" if options else "object_counting",
                question="How many chairs (in meters)?", options=options, ground_truth=truth,
                answer_kind=kind, dataset="scannet", scene_id=None if item_id == "5" else "s",
                metadata={"pruned": pruned})


def _result():
    items = [_item("1", "2", True), _item("2", "0", False), _item("3", "2", False),
             _item("4", "B", True, ("A. x", "B. =y")), _item("5", "3", False), _item(BIG, "nan", False)]
    responses = {"1": "-2", "2": "3", "4": "=B", "5": "nan", BIG: "inf"}
    return score_items(items, responses, RULES, extract="robust")


def test_items_csv_is_the_text_to_csv_wrote(monkeypatch):
    result = _result()
    assert items_csv_text(result.rows) == EXPECTED
    monkeypatch.setattr("spatialbench.scoring.items_file.CHUNK", 2)  # rows written 2 at a time: same text
    assert items_csv_text(result.rows) == EXPECTED


def test_intervals_are_computed_once_per_table_and_forgotten_with_it():
    table = _result().table
    first = table_ci(table)
    first["overall"] = None  # a caller's copy: the stored intervals are not changed
    assert table_ci(table) == table_ci(table) != first
    key = ("ci", id(table))
    assert key in uncertainty._PER_TABLE
    del table
    gc.collect()
    assert key not in uncertainty._PER_TABLE


def test_cells_of_every_kind_are_written_as_the_csv_module_wrote_them():
    """Expected text: main's csv.writer (71e3553) on this frame: quotes doubled, line breaks kept inside the
    quotes, formula starts escaped in text and object columns, numpy floats as ``str``, 1 / True bare."""
    cols = {name: column(["x"] * 5) for name in CSV_COLUMNS}
    cols["prediction"] = column(['say "B"', "a,b\nc", "\r=1", None, "-x"])
    cols["extracted"] = pd.Series(["B", 2.5, None, float("nan"), np.float64(3.0)], dtype=object)
    cols["score"] = pd.Series([1.0, 0.1 + 0.2, float("nan"), 0.0, 1e-20])
    cols["pruned"] = pd.Series([True, None, False, 1, "+x"], dtype=object)
    cols["n_options"] = pd.Series([4, 0, 2, 0, 10])
    cols["ground_truth"] = column(["=A", "@b", "", "\tc", "ok"])
    assert items_csv_text(pd.DataFrame(cols)) == (
        '"id","task","prediction","extracted","score","rule","ground_truth","dataset","pruned","scene_id",'
        '"n_options"\n'
        '"x","x","say ""B""","B",1.0,"x","\'=A","x",True,"x",4\n'
        '"x","x","a,b\nc",2.5,0.30000000000000004,"x","\'@b","x","","x",0\n'
        '"x","x","\'\r=1","","","x","","x",False,"x",2\n'
        '"x","x","","",0.0,"x","\'\tc","x",1,"x",0\n'
        '"x","x","\'-x",3.0,1e-20,"x","ok","x","\'+x","x",10\n')


def test_minus_zero_is_written_as_to_csv_writes_it_beside_zero():
    """Found when cells became one per distinct value (issue 25): ``-0.0 == 0.0``, so one cell was made for
    both and ``-0.0`` came out ``0.0`` (``DataFrame.to_csv`` writes ``-0.0``); ``True == 1.0`` stay apart."""
    cols = {name: column(["x"] * 4) for name in CSV_COLUMNS}
    cols["score"] = pd.Series([0.0, -0.0, -0.0, 0.0])
    cols["extracted"] = pd.Series([0.0, -0.0, True, 1.0], dtype=object)
    cols["pruned"] = pd.Series([None, float("nan"), pd.NA, None], dtype=object)  # all missing: ""
    assert pd.DataFrame({"a": [-0.0]}).to_csv(index=False) == "a\n-0.0\n"
    lines = items_csv_text(pd.DataFrame(cols)).splitlines()[1:]
    assert lines == ['"x","x","x",0.0,0.0,"x","x","x","","x","x"',
                     '"x","x","x",-0.0,-0.0,"x","x","x","","x","x"',
                     '"x","x","x",True,-0.0,"x","x","x","","x","x"',
                     '"x","x","x",1.0,0.0,"x","x","x","","x","x"']


def test_a_text_column_of_distinct_values_is_escaped_in_every_chunk(monkeypatch):
    """Ids all distinct (escaped a chunk at a time): a formula start or a quote only in the second chunk."""
    monkeypatch.setattr("spatialbench.scoring.items_file.CHUNK", 2)
    cols = {name: column(["x"] * 4) for name in CSV_COLUMNS}
    cols["id"] = column(["a", "b", '"c"', None])
    cols["prediction"] = column(["p", "q", "r", "=s"])
    lines = items_csv_text(pd.DataFrame(cols)).splitlines()[1:]
    assert [line.split(",")[0] for line in lines] == ['"a"', '"b"', '"""c"""', '""']
    assert [line.split(",")[2] for line in lines] == ['"p"', '"q"', '"r"', '"\'=s"']


def test_a_text_column_in_several_arrow_chunks_is_written_whole():
    """A concatenated column is a chunked Arrow array, with no data buffer to read: main (8bd24d5) failed on
    it (AttributeError), as the first version of the per-column cells did."""
    cols = {name: column(["x"] * 3) for name in CSV_COLUMNS}
    cols["id"] = pd.concat([column(["a", "b"]), column(['"c"'])], ignore_index=True)
    cols["task"] = pd.concat([column(["t"]), column(["t", "=u"])], ignore_index=True)
    assert cols["id"].array._pa_array.num_chunks == 2
    lines = items_csv_text(pd.DataFrame(cols)).splitlines()[1:]
    assert [line.split(",")[:2] for line in lines] == [['"a"', '"t"'], ['"b"', '"t"'], ['"""c"""', '"\'=u"']]


def test_an_answer_column_of_texts_floats_and_missing_values_keeps_each_apart():
    """Texts, floats and missing values are coded in one hashed pass: ``-0.0`` stays apart from ``0.0``,
    None and NaN are both ``""``, a formula-like text is escaped, a repeated text is the same cell."""
    cols = {name: column(["x"] * 8) for name in CSV_COLUMNS}
    cols["extracted"] = pd.Series(["B", 0.0, -0.0, None, float("nan"), "=x", 2.5, "B"], dtype=object)
    cells = [line.split(",")[3] for line in items_csv_text(pd.DataFrame(cols)).splitlines()[1:]]
    assert cells == ['"B"', "0.0", "-0.0", '""', '""', '"\'=x"', "2.5", '"B"']
