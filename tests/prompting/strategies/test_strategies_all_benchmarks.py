"""Every strategy on MMSI-Video-Bench and ReMindView-Bench (multiple choice) through the official client.

The scripted model always lands on A (extraction turns say A, votes pick choice 1), so each strategy's
score is the share of items whose truth is A: MMSI-Video-Bench fixture 3 of 14 (questions 0, 5, 8:
21.4); ReMindView-Bench fixture 6 of 11 (54.5, as in test_mmsi_remindview_cli).
"""

import json
from pathlib import Path

import pytest

from benchmarks.mmsi_remindview_fixtures import build_mmsi, build_remindview
from spatialbench.api import run
from spatialbench.runs import RunConfig
from support.cot_server import CoTModel, CoTServer

#: strategy → requests per item with the default parameters
REQUESTS = {
    "direct": 1,
    "answer-and-reason": 1,
    "zero-shot-cot": 2,
    "self-consistency": 10,
    "tree-of-thought": 13,
    "self-explanation": 2,
    "mmsi-three-step": 1,
}
BENCHMARKS = {
    "mmsi-video": (build_mmsi, {"setting": "uniform-4"}, 14, 21.4),
    "remindview": (build_remindview, {}, 11, 54.5),
}


@pytest.mark.parametrize("benchmark", sorted(BENCHMARKS))
@pytest.mark.parametrize("strategy", sorted(REQUESTS))
def test_strategy_runs_on_every_benchmark(tmp_path: Path, benchmark: str, strategy: str) -> None:
    build, options, n_items, expected = BENCHMARKS[benchmark]
    data = build(tmp_path / "data")
    model = CoTModel(lambda tag, phase, i: "1" if phase.endswith("vote") else "A")
    with CoTServer(model) as server:
        config = RunConfig.model_validate(
            {
                "data": {"benchmark": benchmark, "path": str(data), "options": options},
                "model": {
                    "name": f"openai-compatible:{server.url}#cot-vlm",
                    "concurrency": 8,
                    "timeout_s": 10,
                },
                "strategy": {"name": strategy},
                "out": str(tmp_path / "run"),
            }
        )
        summary = run(config, progress=False)
    assert summary.counts["ok"] == n_items, summary.unanswered
    assert len(server.script.log) == n_items * REQUESTS[strategy]
    assert summary.usage["requests_per_item"] == REQUESTS[strategy]
    assert round(json.loads((tmp_path / "run" / "scores.json").read_text())["overall"], 1) == expected
