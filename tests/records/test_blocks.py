"""JSONL read in blocks (issue 25 round 2): the same records, line numbers and row errors as line by line."""

import json

import pytest

from spatialbench.benchmarks.vsibench.format import record_to_item
from spatialbench.benchmarks.vsibench.rows_bulk import block_columns
from spatialbench.records.blocks import Block, jsonl_blocks
from spatialbench.records.bulk import Shared
from spatialbench.records.files import read_records
from spatialbench.records.item_table import ItemTable
from spatialbench.scoring.prediction_blocks import add_pairs, block_pairs, hold_clean_blocks

ROW = {"id": 1, "dataset": "scannet", "scene_name": "s1", "question_type": "object_counting",
       "question": "How many chairs?", "options": None, "ground_truth": " 3 "}


def _write(tmp_path, lines):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b"".join(line.encode() + b"\n" for line in lines))
    return path


def test_a_clean_file_is_one_block_of_the_records(tmp_path):
    rows = [{**ROW, "id": k} for k in range(3)]
    [block] = jsonl_blocks(_write(tmp_path, ["\ufeff" + json.dumps(rows[0]), *map(json.dumps, rows[1:])]))
    assert isinstance(block, Block) and block.first == 1 and block.records == rows


@pytest.mark.parametrize("big", [2**63, 2**64 + 1, -(2**63) - 1, 10**30])
def test_ids_beyond_64_bits_are_read_line_by_line_exactly(tmp_path, big):
    path = _write(tmp_path, [json.dumps({**ROW, "id": big}), json.dumps(ROW)])
    entries = list(jsonl_blocks(path))
    assert [e[2]["id"] for e in entries] == [big, 1]  # orjson would give 1.8446744073709552e+19 for 2**64 + 1
    assert entries == list(read_records(path))


def test_a_block_with_a_blank_or_bad_line_is_read_as_read_records_reads_it(tmp_path):
    path = _write(tmp_path, [json.dumps(ROW), "", "{bad", "[1]", json.dumps({**ROW, "id": 2})])
    entries = list(jsonl_blocks(path))
    assert entries == list(read_records(path))
    assert [e.line if hasattr(e, "line") else e[1] for e in entries] == [1, 3, 4, 5]


def block_items(rows, pruned):
    columns = block_columns(rows, pruned, Shared())
    return None if columns is None else list(ItemTable(columns))


def test_block_columns_are_those_of_the_items_read_one_by_one():
    rows = [{**ROW, "id": k, "pruned": k % 2 == 0} for k in range(4)]
    rows[1].update(question_type="route_planning", options=["A. x", "B. y"], ground_truth="b")
    built = block_items(rows, None)
    assert built == [record_to_item(r, None, Shared()) for r in rows]
    assert [i.ground_truth for i in built] == ["3", "B", "3", "3"]
    assert [i.metadata["pruned"] for i in built] == [True, False, True, False]
    assert block_items(rows, {"2"}) == [record_to_item(r, {"2"}, Shared()) for r in rows]
    assert block_columns(rows, None, Shared())["id"] == ["0", "1", "2", "3"]


@pytest.mark.parametrize("change", [{"extra": 1}, {"options": None, "question_type": "route_planning"},
                                    {"ground_truth": "abc"}, {"ground_truth": 3}, {"question": " "},
                                    {"scene_name": "../x"}, {"id": None}, {"options": ["A. x", 2]}])
def test_a_block_with_a_row_to_report_is_left_to_the_row_reader(change):
    assert block_columns([ROW, {**ROW, **change}], None, Shared()) is None


def add_block(responses, records, field):
    """A block's responses added as the reader adds them, or nothing (False)."""
    pairs = block_pairs(records, field)
    return pairs is not None and add_pairs(responses, *pairs)


def test_add_block_takes_clean_blocks_only():
    responses = {"9": "A"}
    assert add_block(responses, [{"id": 1, "response": "B"}, {"id": "x", "response": "é"}], None)
    assert responses == {"9": "A", "1": "B", "x": "é"}
    for bad in ([{"id": 9, "response": "C"}], [{"id": 2, "response": "C"}, {"id": 2, "response": "D"}],
                [{"id": 3, "response": "\ud800"}], [{"id": 3, "response": 4}], [{"id": 3.0, "response": "C"}],
                [{"id": 3, "prediction": "C"}]):
        assert not add_block(responses, bad, None)
    assert responses == {"9": "A", "1": "B", "x": "é"}
    assert add_block(responses, [{"id": 3, "prediction": "C"}], "prediction") and responses["3"] == "C"


def test_held_blocks_add_in_file_order_and_a_block_repeating_an_id_goes_line_by_line():
    lines = []
    blocks = [Block("p.jsonl", 1, [{"id": 1, "response": "A"}, {"id": 2, "response": "B"}]),
              Block("p.jsonl", 3, [{"id": 3, "response": "C"}, {"id": 1, "response": "D"}]),
              ("p.jsonl", 5, {"id": 4}), Block("p.jsonl", 6, [{"id": 5, "response": "E"}])]
    responses = {}
    passed = list(hold_clean_blocks(blocks, responses, None, lambda *line: lines.append(line)))
    assert passed == [("p.jsonl", 5, {"id": 4})]
    # block 1 added; block 2 repeats id 1, so each of its lines is read on its own (the reader then
    # adds 3 and refuses the second 1); block 3 added after the line that is not a clean block
    assert lines == [("p.jsonl", 3, "3", "C"), ("p.jsonl", 4, "1", "D")]
    assert responses == {"1": "A", "2": "B", "5": "E"}
