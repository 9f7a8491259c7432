"""While a run's requests are in flight the heap made before them is out of garbage collection (issue 25).

A full collection walked every object of the imported SDKs and the items (0.2-0.6 s holding the
interpreter lock on the 2-scene demo); frozen, collections walk only what the requests make.
"""

from __future__ import annotations

import gc
from pathlib import Path

from spatialbench.api import run
from spatialbench.runs.heap import frozen_heap
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench


def test_frozen_heap_freezes_and_gives_back() -> None:
    assert gc.get_freeze_count() == 0
    kept = [object() for _ in range(10)]
    with frozen_heap():
        assert gc.get_freeze_count() >= len(kept)
    assert gc.get_freeze_count() == 0


def test_requests_run_with_the_heap_frozen(tmp_path: Path) -> None:
    data = tmp_path / "data"
    answers, frozen = make_vsibench(data, n_videos=1, per_video=4), []
    answer = answer_script(answers)

    def counting(text: str) -> str:  # the server runs in this process: it sees the client's heap
        frozen.append(gc.get_freeze_count())
        return answer(text)

    with OpenAIServer(ServerScript(answer=counting)) as server:
        summary = run({
            "data": {"benchmark": "vsibench", "path": str(data)},
            "model": {"name": f"openai-compatible:{server.url}#m", "concurrency": 2},
            "media": {"frames": "uniform:3"}, "out": str(tmp_path / "run"),
        }, progress=False)
    assert summary.counts["ok"] == 4 and len(frozen) == 4
    assert min(frozen) > 10_000  # the imported modules and the items, at least
    assert gc.get_freeze_count() == 0
