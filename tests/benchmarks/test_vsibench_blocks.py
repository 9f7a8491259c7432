"""VSI-Bench annotations read in blocks (issue 25): the same items and row errors however the lines fall.

Clean blocks are held and their ids checked at once; a repeated id, a bad line or a file boundary between
them must give the row errors, in file order, that a line-by-line reading gives.
"""

from __future__ import annotations

import json

import pytest

from spatialbench.benchmarks.vsibench.loader import load_vsibench, load_vsibench_table
from spatialbench.records import blocks


def _row(k: int, **change) -> str:
    row = {"id": k, "dataset": "scannet", "scene_name": f"scene{k % 3}", "question_type": "object_counting",
           "question": f"How many chairs ({k})?", "options": None, "ground_truth": str(k + 1)}
    return json.dumps({**row, **change})


LINES = [_row(1), _row(2), _row(3), _row(1), "{bad", _row(4), _row(5, ground_truth="x"), _row(2), _row(6)]


@pytest.mark.parametrize("block_bytes", [1, 300, 1 << 21])  # a line a block, a few lines a block, one block
def test_repeated_ids_and_bad_lines_are_row_errors_in_file_order(tmp_path, monkeypatch, block_bytes):
    monkeypatch.setattr(blocks, "BLOCK_BYTES", block_bytes)
    path = tmp_path / "test.jsonl"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    table = load_vsibench_table(path)
    assert table.column("id") == ["1", "2", "3", "4", "6"]
    assert table.column("ground_truth") == ["2", "3", "4", "5", "7"]
    assert [(e.line, e.field) for e in table.errors] == [(4, "id"), (5, None), (7, "ground_truth"), (8, "id")]
    assert "duplicate id '1' (first at " + f"{path}:1)" in str(table.errors[0])
    assert "duplicate id '2' (first at " + f"{path}:2)" in str(table.errors[3])
    items = load_vsibench(path)
    assert list(items) == list(table) and items.errors == table.errors


def test_an_id_repeated_in_a_second_file_names_its_first_file(tmp_path, monkeypatch):
    monkeypatch.setattr(blocks, "BLOCK_BYTES", 1)
    (tmp_path / "a.jsonl").write_text(_row(1) + "\n" + _row(2) + "\n", encoding="utf-8")
    (tmp_path / "b.jsonl").write_text(_row(3) + "\n" + _row(2) + "\n", encoding="utf-8")
    table = load_vsibench_table(tmp_path)
    assert table.column("id") == ["1", "2", "3"]
    assert [str(e) for e in table.errors] == [
        f"{tmp_path / 'b.jsonl'}:2: field 'id': duplicate id '2' (first at {tmp_path / 'a.jsonl'}:2)"]
