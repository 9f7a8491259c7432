"""Runs on the demo benchmark for the report tests: a vision run and a blind run against the loopback
OpenAI-compatible server, and both chance baselines.

The scripted "model" answers by question text: the vision run answers the items with an even id right and
the others wrong, the blind run those with an id divisible by 4 — so every score can be computed by hand
from ``test.jsonl``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spatialbench.api import run
from spatialbench.demo import run_demo
from spatialbench.runs import RunConfig
from support.openai_server import OpenAIServer, ServerScript


def wrong(truth: str, multiple_choice: bool) -> str:
    """An answer that scores 0: another letter, or a number 10x off (MRA 0)."""
    if multiple_choice:
        return "B" if truth != "B" else "C"
    return str(float(truth) * 10.0 + 10.0)


def scripted(records: list[dict], right: set[int]):  # type: ignore[no-untyped-def]
    """Answer function: right for ids in ``right``, wrong otherwise, keyed by the question text."""
    by_text = {}
    for r in records:
        multiple_choice = bool(r.get("options"))
        by_text[r["question"]] = r["ground_truth"] if r["id"] in right else wrong(r["ground_truth"],
                                                                                  multiple_choice)

    def answer(text: str) -> str:
        hits = [q for q in by_text if q in text]
        return by_text[max(hits, key=len)] if hits else "?"

    return answer


SECRET = "sk-report-test-0a1b2c3d4e5f-never-written"


def make_run(data: Path, out: Path, model: str, **extra) -> Path:
    config = RunConfig.model_validate({
        "data": {"benchmark": "vsibench", "path": str(data)},
        "model": {"name": model, "concurrency": 4, "timeout_s": 5.0, "retry_base_delay_s": 0.01},
        "media": {"frames": "uniform:4", "max_pixels": 160 * 120},
        "out": str(out),
        **extra,
    })
    with pytest.MonkeyPatch.context() as patch:  # a key in the environment must reach no file
        patch.setenv("OPENAI_API_KEY", SECRET)
        run(config, progress=False)
    return out


@pytest.fixture(scope="session")
def demo_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``benchmark`` (a 1-scene demo) and the run folders ``vision``, ``blind``, ``random``, ``frequency``."""
    root = tmp_path_factory.mktemp("report-demo")
    run_demo(root / "demo", scenes=1, seed=0, seconds=6.0, log=lambda line: None)
    data = root / "demo" / "benchmark"
    records = [json.loads(line) for line in (data / "test.jsonl").read_text().splitlines()]
    even = {r["id"] for r in records if r["id"] % 2 == 0}
    fourth = {r["id"] for r in records if r["id"] % 4 == 0}
    runs = {"benchmark": data}
    for name, right, extra in (("vision", even, {}), ("blind", fourth, {"prompt": {"blind": True}})):
        with OpenAIServer(ServerScript(answer=scripted(records, right))) as server:
            runs[name] = make_run(data, root / name, f"openai-compatible:{server.url}#demo-vlm", **extra)
    runs["random"] = make_run(data, root / "chance-random", "chance-random")
    runs["frequency"] = make_run(data, root / "chance-frequency", "chance-frequency")
    return runs
