"""A failed turn of a voting strategy: its sibling turns in flight finish and are stored (issue 11, #2).

Self-consistency, 5 samples per item, 4 items (``make_vsibench`` unshuffled). The first request of each
item's chain-of-thought text (seed 0) gets a non-JSON 200 body at once, on every attempt; the other
four samples of that item answer after 0.3 s. The item fails, but the run waits for those four: each
stores its reasoning turn and then its extraction turn, so the store holds, per item, 1 failed + 4 ok
``cot`` turns + 4 ok ``extract`` turns = 9 rows, 36 in all, and the run returns (no write to a closed store).
"""

import sqlite3
from collections import Counter
from typing import Any

from spatialbench.api import run
from spatialbench.runs import STORE_NAME, RunConfig
from support.cot_server import CoTModel, CoTServer
from support.openai_server import Fault, ServerScript
from support.vsi_data import make_vsibench

TRUTH = {"q0": "7", "q1": "C", "q2": "5", "q3": "B"}


def _is_cot(text: str) -> bool:
    return "Let's think step by step." in text and "Based on your reasoning" not in text


def _fault(seen: int, text: str) -> Fault | None:
    return Fault("timeout", delay_s=0.3) if _is_cot(text) and seen > 0 else None


class BrokenSampleZero(CoTModel):
    def reply(self, body: dict[str, Any]) -> str | bytes:  # type: ignore[override]
        last = str(body["messages"][-1]["content"])
        return b"<html>bad gateway</html>" if body.get("seed") == 0 and _is_cot(last) else super().reply(body)


def test_siblings_of_a_failed_turn_are_awaited_and_stored(tmp_path) -> None:
    assert make_vsibench(tmp_path / "vsi", n_videos=1, per_video=4, shuffle=False) == TRUTH
    out = tmp_path / "run"
    model = BrokenSampleZero(lambda tag, phase, i: TRUTH[tag])
    with CoTServer(model, ServerScript(fault=_fault)) as server:
        config = RunConfig.model_validate(
            {
                "data": {"benchmark": "vsibench", "path": str(tmp_path / "vsi")},
                "model": {
                    "name": f"openai-compatible:{server.url}#cot-vlm",
                    "max_attempts": 2,
                    "concurrency": 4,
                },
                "media": {"frames": "uniform:4"},
                "strategy": {"name": "self-consistency"},
                "out": str(out),
            }
        )
        summary = run(config, progress=False)
    assert summary.counts["failed"] == 4
    assert all("JSON" in (error or "") for _, _, error in summary.unanswered), summary.unanswered
    with sqlite3.connect(out / STORE_NAME) as conn:
        rows = conn.execute("SELECT turn, status, error FROM turns").fetchall()
    kinds = Counter((turn.split("/")[-1], status) for turn, status, _ in rows)
    failed = [row for row in rows if row[1] != "ok"]
    assert kinds == {("cot", "failed"): 4, ("cot", "ok"): 16, ("extract", "ok"): 16}, failed
