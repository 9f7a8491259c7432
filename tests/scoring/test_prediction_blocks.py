"""Predictions JSONL read in blocks: the same responses and row errors however the lines fall in blocks."""

from __future__ import annotations

import pytest

from spatialbench.records import blocks
from spatialbench.scoring.predictions import read_predictions

LINES = ['{"id": 1, "response": "A"}', '{"id": 2, "response": "B"}', '{"id": 3, "response": "C"}',
         '{"id": 1, "response": "D"}', '{"id": 4, "response": "E"}']


@pytest.mark.parametrize("block_bytes", [1, 40, 1 << 21])  # a line a block, two lines a block, one block
def test_an_id_repeated_in_a_later_block_is_refused_at_its_line(tmp_path, monkeypatch, block_bytes):
    monkeypatch.setattr(blocks, "BLOCK_BYTES", block_bytes)
    path = tmp_path / "predictions.jsonl"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    read = read_predictions(path, [], format="jsonl")
    assert read.responses == {"1": "A", "2": "B", "3": "C", "4": "E"}
    assert [str(error) for error in read.errors] == [
        f"{path}:4: field 'id': second prediction for item '1' (first kept)"]
