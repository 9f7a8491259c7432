"""VSI-SUPER-Count streaming through ``spatialbench run`` and ``score``: every expected count scored.

The release table (lmms-eval ``lmms_eval/tasks/vsisuper/count_streaming``, commit 75571cf: ``split``
``10mins_streaming`` ..., ``answers`` a list of counts) shares its file with the plain Count rows;
``vsi-super-count`` reads those, ``vsi-super-count-streaming`` the streaming ones. ``_lmms_streaming`` is
lmms-eval's ``process_results`` written again: it averages over ``zip(predictions, answers)``, so "[3]"
against [3, 5, 8, 12] is 1.0 there; here each of the four expected counts is scored (0.25).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from benchmarks.test_vsi_super import _run, _write
from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.vsi_super import streaming_score, streaming_scores
from spatialbench.cli.main import app
from spatialbench.scoring.baselines import chance_frequency

# (split, answers, response); MRA by hand (θ = .50 ... .95, hit when |ŷ-y|/y <= 1-θ):
# [3] vs [3, 5, 8, 12]: 1, 0, 0, 0 → 0.25; [10, 30] vs [10, 20]: 1.0 and 0.5 <= 0.5 only 0.1 → 0.55;
# no count → 0
STREAMING = [("10mins_streaming", [3, 5, 8, 12], "[3]"), ("10mins_streaming", [10, 20], "So far: [10, 30]"),
             ("30mins_streaming", [4, 6], "no idea")]
SCORES = [0.25, 0.55, 0.0]
PEER = [1.0, 0.55, 0.0]  # lmms-eval: "[3]" is 1.0; "So far: [10, 30]" is no JSON list there → 0, see below


def _release(folder: Path) -> Path:
    streaming = [{"id": f"s{k}", "video_path": f"videos/s{k}.mp4", "split": d, "answers": a,
                  "question": f"Streaming question {k}: how many chairs have you seen at each query time?"}
                 for k, (d, a, _) in enumerate(STREAMING)]
    plain = [{"id": "c0", "video_path": "videos/c0.mp4", "split": "10mins", "answer": 7,
              "question": "Count question 9: how many chairs?"}]
    return _write(folder, plain + streaming)


def _mra(pred: float, target: float) -> float:
    """``vsc_streaming_utils._mean_relative_accuracy``, again."""
    conf = np.linspace(0.5, 0.95, int((0.95 - 0.5) / 0.05 + 2))
    return float(np.mean(abs(pred - target) / abs(target) <= 1 - conf))


def _lmms_streaming(prediction: str, answers: list[float]) -> float:
    """``vsc_streaming_utils.process_results``, again (the peer bug: ``zip`` stops at the shorter list)."""
    try:
        parsed = json.loads(prediction)
    except json.JSONDecodeError:
        parsed = []
    parsed = parsed if isinstance(parsed, list) else []
    scores = [_mra(p, a) for p, a in zip(parsed, answers, strict=False)]
    return float(np.mean(scores)) if scores else 0.0


def test_count_and_streaming_rows_of_one_table(tmp_path: Path) -> None:
    data = _release(tmp_path / "c")
    plain = get_benchmark("vsi-super-count").load_items(data)
    streaming = get_benchmark("vsi-super-count-streaming").load_items(data)
    assert not plain.errors and [i.id for i in plain] == ["c0"]
    assert not streaming.errors and [i.dataset for i in streaming] == ["10mins", "10mins", "30mins"]
    assert [json.loads(i.ground_truth) for i in streaming] == [a for _, a, _ in STREAMING]
    bad_row = {"id": 0, "video_path": "v.mp4", "split": "10mins_streaming", "answers": [3, "many"]}
    (tmp_path / "bad.json").write_text(json.dumps([bad_row]))
    bad = get_benchmark("vsi-super-count-streaming").load_items(tmp_path / "bad.json")
    assert not list(bad) and [e.field for e in bad.errors] == ["answer"]


def test_recall_duration_is_its_type_field(tmp_path: Path) -> None:
    rows = [{"id": 0, "video_path": "videos/r0.mp4", "type": "240mins", "answer": "B", "question": "Recall?",
             "options": ["A. x", "B. y"]}]
    loaded = get_benchmark("vsi-super-recall").load_items(_write(tmp_path / "r", rows))
    assert not loaded.errors and [i.dataset for i in loaded] == ["240mins"]  # vsr_utils: doc["type"]


@pytest.mark.slow
def test_score_scores_every_expected_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    out = tmp_path / "run"
    _run("vsi-super-count-streaming", _release(tmp_path / "c"), out, STREAMING)
    rows = pd.read_csv(out / "items.csv", dtype={"id": str}).set_index("id")
    assert [rows.loc[f"s{k}", "score"] for k in range(3)] == pytest.approx(SCORES)
    assert rows.loc["s0", "extracted"] == "[3]" and rows.loc["s2", "rule"] == "no_answer:no_count"
    peer = [_lmms_streaming(r, a) for _, a, r in STREAMING]
    assert peer[0] == 1.0 and peer[1] == 0.0 and SCORES[0] == 0.25  # the peer: "[3]" is 1.0; not here
    assert _lmms_streaming("[10, 30]", [10, 20]) == pytest.approx(PEER[1]) == pytest.approx(SCORES[1])
    scored = CliRunner().invoke(app, ["score", "--run", str(out)])
    assert scored.exit_code == 0, scored.output
    scores = json.loads((out / "scores.json").read_text())
    assert scores["10mins"] == pytest.approx(40.0) and scores["30mins"] == 0.0  # (0.25 + 0.55) / 2; 0
    assert scores["overall"] == pytest.approx(100 * 0.8 / 3)
    assert "| 26.7 | 40.0 | 0.0 |" in scored.output, scored.output


def test_chance_frequency_answers_a_constant_per_query_time(tmp_path: Path) -> None:
    spec = get_benchmark("vsi-super-count-streaming")
    items = list(spec.load_items(_release(tmp_path / "c")))
    result = chance_frequency(items, spec.scoring)
    # per position, the smallest constant of best mean MRA: {3, 10, 4} → 3; {5, 20, 6} → 5.175; {8} → 7.6
    # (|7.6-8|/8 = 0.05, a hit at every θ); {12} → 12
    assert result.rows["extracted"].tolist() == ["[3, 5.175, 7.6, 12]"] * 3
    # by hand: s0 all four hit → 1.0; s1 3 vs 10 and 5.175 vs 20 → 0; s2 3 vs 4 (0.25: θ ≤ .75, 6 of 10)
    # and 5.175 vs 6 (0.1375: θ ≤ .85, 8 of 10) → 0.7
    assert result.rows["score"].tolist() == pytest.approx([1.0, 0.0, 0.7])


def _cambrians_streaming_pairs(prediction: str, answers: list[float]) -> list[float]:
    """The ``cambrians_vsc_streaming`` task's ``process_results`` (cache ``cambrians_vsc``), again.

    One MRA per ``zip(json.loads(prediction), answers)`` pair, θ = linspace(.5, .95, 10), a hit when ``<=``.
    """
    thresholds = np.linspace(0.5, 0.95, 10)
    pairs = zip(json.loads(prediction), answers, strict=False)  # the official zip: the shorter list decides
    return [float(np.mean(abs(p - a) / a <= 1 - thresholds)) for p, a in pairs]


def test_extra_counts_are_ignored_as_the_official_code_does() -> None:
    # issue 24 item 5: "[3, 5, 8, 12, 99]" against [3, 5, 8, 12]. The official code pairs counts with answers
    # by zip, so the fifth count (no query time asks for it) is never compared: four pairs, each MRA 1 → 1.0.
    answers = [3.0, 5.0, 8.0, 12.0]
    official = _cambrians_streaming_pairs("[3, 5, 8, 12, 99]", answers)
    assert official == [1.0, 1.0, 1.0, 1.0]
    assert streaming_score("[3, 5, 8, 12, 99]", answers) == pytest.approx(np.mean(official)) == 1.0
    assert streaming_scores("[3, 5, 8, 12, 99]", answers).tolist() == [1.0, 1.0, 1.0, 1.0]  # one per query
    # 9 vs 8: relative error 0.125, hits for θ = .50 ... .85 (8 of 10): 0.8
    assert streaming_score("[3, 5, 9, 12, 99]", answers) == pytest.approx((1 + 1 + 0.8 + 1) / 4)
