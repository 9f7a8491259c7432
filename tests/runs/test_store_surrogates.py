"""Issue 26 item 3: a lone UTF-16 surrogate in a server reply ("2 \\ud83d") crashed ``run`` in the store."""

from __future__ import annotations

from pathlib import Path

from spatialbench.records.messages import Response
from spatialbench.runs.store import RunStore


def test_lone_surrogate_answer_is_stored_escaped_and_read_back(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "run.sqlite")
    assert store.put("k1", "1", {}, Response(text="2 \ud83d")) == "ok"
    assert store.put("k2", "2", {}, error="BackendError: bad \udc80 byte") == "failed"
    assert store.put_turn("t1", "k1", "1", "reason", {}, Response(text="x \ud800")) == "ok"
    assert store.done_keys() == {"k1"}
    rows = {r.item_id: r for r in store.results()}
    store.close()
    assert rows["1"].response == "2 \\ud83d"  # the escape keeps the code point; the number still reads 2
    assert rows["2"].error == "BackendError: bad \\udc80 byte"
