"""Every strategy end to end: the official openai client against the scripted CoT model on 127.0.0.1.

Data: one video, four questions (``make_vsibench``, unshuffled): q0 and q2 count chairs (truths 7 and 5,
numerical, MRA), q1 and q3 are relative-distance multiple choice (truths C and B). VSI-Bench's table
averages the two tasks present: overall = (counting + rel. distance) / 2.

MRA of a count 6 or 8 against 7 (official ``<=``): relative error 1/7 = 0.143 passes θ = .50 … .85 (8 of
10 thresholds) → 0.8. So where q0 is answered 8 (or 6) and q2 right, counting = (0.8 + 1) / 2 = 90.0.
"""

import json
import sqlite3
from pathlib import Path

import pytest

from spatialbench.api import run
from spatialbench.runs import STORE_NAME, RunConfig
from support.cot_server import CoTModel, CoTServer
from support.openai_server import Fault, LoggedRequest, ServerScript
from support.vsi_data import make_vsibench, question_tag

POST_PROMPTS = (
    "Answer with the option's letter from the given choices directly.",
    "Please answer the question using a single word or phrase.",
    "Do not respond with anything other than a single number!",
)
TRUTH = {"q0": "7", "q1": "C", "q2": "5", "q3": "B"}


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vsi")
    assert make_vsibench(root, n_videos=1, per_video=4, shuffle=False) == TRUTH
    return root


def _run(root: Path, out: Path, strategy: str, model: CoTModel, **params) -> tuple[list[LoggedRequest], dict]:
    with CoTServer(model) as server:
        config = RunConfig.model_validate(
            {
                "data": {"benchmark": "vsibench", "path": str(root)},
                "model": {
                    "name": f"openai-compatible:{server.url}#cot-vlm",
                    "concurrency": 4,
                    "timeout_s": 10,
                },
                "media": {"frames": "uniform:4"},
                "strategy": {"name": strategy, "params": params},
                "out": str(out),
            }
        )
        summary = run(config, progress=False)
    assert summary.counts["ok"] == 4, summary.unanswered
    return server.script.log, json.loads((out / "scores.json").read_text())


def _last_text(request: LoggedRequest) -> str:
    content = request.body["messages"][-1]["content"]
    return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)


def _by_tag(log: list[LoggedRequest]) -> dict[str, list[LoggedRequest]]:
    grouped: dict[str, list[LoggedRequest]] = {}
    for request in log:
        grouped.setdefault(question_tag(request.text), []).append(request)
    return grouped


def _raw(out: Path) -> dict[str, dict]:
    with sqlite3.connect(out / STORE_NAME) as conn:
        rows = conn.execute("SELECT item_id, response, raw FROM results").fetchall()
    return {f"q{item}": {"answer": answer, **json.loads(raw)} for item, answer, raw in rows}


def test_zero_shot_cot_reasons_then_extracts_and_scores_by_hand(data, tmp_path) -> None:
    choose = {"q0": "8", "q1": "C", "q2": "5", "q3": "B"}
    model = CoTModel(lambda tag, phase, i: choose[tag], garbled=frozenset({"q3"}))  # q3: no answer read
    log, scores = _run(data, tmp_path / "cot", "zero-shot-cot", model)
    assert len(log) == 8
    for tag, (first, second) in _by_tag(log).items():
        assert _last_text(first).endswith("\nLet's think step by step.") and first.n_images == 4
        # App. B.3: the trigger follows the question, with no Table 9 answer-directly post-prompt before it
        assert not any(post in _last_text(first) for post in POST_PROMPTS)
        assert [m["role"] for m in second.body["messages"]] == ["user", "assistant", "user"]
        assert second.n_images == 4  # the frames once, in the first user turn
        assert second.body["messages"][1]["content"].endswith(f"the answer is {choose[tag]}.")
        assert first.body["temperature"] == second.body["temperature"] == 0.0
        assert "top_k" not in first.body  # greedy (App. B.3: temperature 0, top-p 1, top-k 1)
    assert _last_text(_by_tag(log)["q1"][0]).endswith("\nD. bed\nLet's think step by step.")
    assert "(A, B, C or D)" in _last_text(_by_tag(log)["q1"][1])
    assert "single number" in _last_text(_by_tag(log)["q0"][1])
    # counting (0.8 + 1.0) / 2 = 90; rel. distance: q1 right, q3 no answer → 50; overall 70
    assert (scores["object_counting"], scores["object_rel_distance"], scores["overall"]) == (90.0, 50.0, 70.0)
    assert scores["no_answer"]["total"] == 1


SAMPLES = {
    "q0": ["8", "7", "8", "7", "9"],  # 8 and 7 tie at 2 votes; 8 was cast first → 8 (MRA 0.8)
    "q1": ["B", "C", "C", "B", "D"],  # B and C tie; B first → B (wrong)
    "q2": ["5", "5", "6", "5", "6"],  # 5 wins 3-2
    "q3": ["B", "A", "B", "A", "B"],  # B wins 3-2
}


def test_self_consistency_samples_five_votes_and_scores_by_hand(data, tmp_path) -> None:
    model = CoTModel(lambda tag, phase, i: SAMPLES[tag][i])
    log, scores = _run(data, tmp_path / "sc", "self-consistency", model)
    assert len(log) == 40
    for requests in _by_tag(log).values():
        cots = [r.body for r in requests if len(r.body["messages"]) == 1]
        extracts = [r.body for r in requests if len(r.body["messages"]) == 3]
        assert sorted(b["seed"] for b in cots) == [0, 1, 2, 3, 4]
        assert {(b["temperature"], b["top_p"], b["top_k"]) for b in cots} == {(0.7, 1.0, 40)}
        assert len(extracts) == 5 and {b["temperature"] for b in extracts} == {0.0}
        cot_texts = [_last_text(r) for r in requests if len(r.body["messages"]) == 1]
        assert all(t.endswith("\nLet's think step by step.") for t in cot_texts)
        assert not any(post in t for t in cot_texts for post in POST_PROMPTS)
    raw = _raw(tmp_path / "sc")
    assert (
        raw["q0"]["trace"] == {"votes": [8.0, 7.0, 8.0, 7.0, 9.0], "winner": 8.0}
        and raw["q0"]["answer"] == "8.0"
    )
    assert raw["q1"]["answer"] == "B" and raw["q3"]["answer"] == "B" and raw["q2"]["answer"] == "5.0"
    assert {r["requests"] for r in raw.values()} == {10}
    # counting (0.8 + 1.0) / 2 = 90; rel. distance (0 + 1) / 2 = 50
    assert (scores["object_counting"], scores["object_rel_distance"], scores["overall"]) == (90.0, 50.0, 70.0)


TOT = {
    # tag: (plan votes, answers from the plan, answer votes)
    "q0": (["2", "2", "3"], ["6", "7", "7"], ["3", "1", "1"]),  # answer 1 (6) chosen: MRA 0.8
    "q1": (["2", "2", "3"], ["C", "B", "C"], ["2", "2", "1"]),  # answer 2 (B) chosen: wrong
    "q2": (["2", "2", "3"], ["5", "5", "5"], ["1", "2", "3"]),  # 1-1-1 tie → answer 1
    "q3": (["2", "2", "3"], ["B", "A", "A"], ["9", "9", "9"]),  # no valid vote → answer 1 (B)
}
PHASE = {"plan_vote": 0, "tot_answer": 1, "answer_vote": 2}


def test_tree_of_thought_votes_plans_then_answers_and_scores_by_hand(data, tmp_path) -> None:
    model = CoTModel(lambda tag, phase, i: TOT[tag][PHASE[phase]][i])
    log, scores = _run(data, tmp_path / "tot", "tree-of-thought", model)
    assert len(log) == 52  # 1 request for 3 plans + 3 plan votes + 3 × (answer + extraction) + 3 votes, × 4
    for tag, requests in _by_tag(log).items():
        texts = [_last_text(r) for r in requests]
        (plan,) = [t for t in texts if "distinct plans" in t]  # App. B.3: "generate 3 distinct plans"
        assert "First write 3 distinct plans" in plan and '"Plan K:" (K = 1 to 3)' in plan
        assert not any(post in t for t in texts for post in POST_PROMPTS)  # no turn says "answer directly"
        plan_votes = [t for t in texts if "plans for answering" in t]
        assert len(plan_votes) == 3 and all(f"Choice 3:\nPlan 3: plan 3 for {tag}" in t for t in plan_votes)
        assert all("Here are 3 plans" in t and "Here are my plans" not in t for t in plan_votes)
        answers = [t for t in texts if "Follow this plan" in t]
        assert len(answers) == 3 and all(f"plan 2 for {tag}" in t for t in answers)  # plan 2 won 2-1
        assert sum("candidate answers" in t for t in texts) == 3
    raw = _raw(tmp_path / "tot")
    assert [raw[t]["trace"]["chosen_answer"] for t in TRUTH] == [0, 1, 0, 0]
    assert raw["q3"]["trace"]["answer_votes"] == [None, None, None]
    assert {r["requests"] for r in raw.values()} == {13}
    assert {r["trace"]["plans"] for r in raw.values()} == {3}
    assert (scores["object_counting"], scores["object_rel_distance"], scores["overall"]) == (90.0, 50.0, 70.0)


def test_self_explanation_scores_the_answer_and_stores_the_explanation(data, tmp_path) -> None:
    model = CoTModel(lambda tag, phase, i: {"q0": "8"}.get(tag, TRUTH[tag]))
    log, scores = _run(data, tmp_path / "se", "self-explanation", model)
    assert len(log) == 8
    explain = [r for r in log if _last_text(r) == "Please explain your answer step by step."]
    assert len(explain) == 4 and all(r.body["messages"][1]["role"] == "assistant" for r in explain)
    raw = _raw(tmp_path / "se")
    assert raw["q2"]["trace"]["explanation"] == "Explanation: I counted what I saw for q2."
    with sqlite3.connect(tmp_path / "se" / STORE_NAME) as conn:
        assert conn.execute(
            "SELECT COUNT(*) FROM turns WHERE turn = 'explain' AND status = 'ok'"
        ).fetchone() == (4,)
    assert (scores["object_counting"], scores["object_rel_distance"]) == (90.0, 100.0)


def test_mmsi_three_step_asks_the_steps_in_one_turn(data, tmp_path) -> None:
    model = CoTModel(lambda tag, phase, i: TRUTH[tag])
    log, scores = _run(data, tmp_path / "three", "mmsi-three-step", model)
    assert len(log) == 4 and all("Step 3: Reason and Solve." in _last_text(r) for r in log)
    assert scores["overall"] == 100.0  # \boxed{X} read by the robust extractor


def test_answer_and_reason_asks_for_both_in_one_output(data, tmp_path) -> None:
    # MMSI-Video-Bench App. B: for error analysis the model gives "both an answer and a reason" in its output
    model = CoTModel(lambda tag, phase, i: TRUTH[tag])
    log, scores = _run(data, tmp_path / "reason", "answer-and-reason", model)
    assert len(log) == 4 and all(len(r.body["messages"]) == 1 for r in log)  # one turn, no explain turn
    assert all(
        _last_text(r).endswith("then give your final answer in the format asked for above.") for r in log
    )
    assert all("In your output, give both an answer and a reason" in _last_text(r) for r in log)
    raw = _raw(tmp_path / "reason")
    assert raw["q1"]["answer"] == "Reason: I counted what I saw for q1.\n\\boxed{C}"
    assert scores["overall"] == 100.0
    with sqlite3.connect(tmp_path / "reason" / STORE_NAME) as conn:  # errors sample reads it as explanation
        assert conn.execute(
            "SELECT COUNT(*) FROM turns WHERE turn = 'explain' AND status = 'ok'"
        ).fetchone() == (4,)


def test_a_failed_turn_fails_its_item_and_only_that_turn_is_sent_again(data, tmp_path) -> None:
    out = tmp_path / "fail"
    model = CoTModel(lambda tag, phase, i: TRUTH[tag])
    extraction = "Based on your reasoning"
    failing = ServerScript(fault=lambda seen, text: Fault("500") if extraction in text else None)
    with CoTServer(model, failing) as server:
        config = RunConfig.model_validate(
            {
                "data": {"benchmark": "vsibench", "path": str(data)},
                "model": {"name": f"openai-compatible:{server.url}#cot-vlm", "max_attempts": 1},
                "media": {"frames": "uniform:4"},
                "strategy": {"name": "zero-shot-cot"},
                "out": str(out),
            }
        )
        summary = run(config, progress=False)
    assert summary.counts["failed"] == 4 and all("500" in (error or "") for _, _, error in summary.unanswered)
    with sqlite3.connect(out / STORE_NAME) as conn:
        turns = sorted(conn.execute("SELECT turn, status FROM turns").fetchall())
    assert turns == [("cot", "ok")] * 4 + [("extract", "failed")] * 4
    with CoTServer(model) as server:
        summary = run(config.updated("model", name=f"openai-compatible:{server.url}#cot-vlm"), progress=False)
    assert summary.counts["ok"] == 4 and len(server.script.log) == 4  # the extraction turns alone
    assert all(extraction in _last_text(r) for r in server.script.log)
    assert {r["reused"] for r in _raw(out).values()} == {1}


def test_mmsi_three_step_with_an_extraction_turn(data, tmp_path) -> None:
    model = CoTModel(lambda tag, phase, i: {"q0": "8"}.get(tag, TRUTH[tag]))
    log, scores = _run(data, tmp_path / "three-x", "mmsi-three-step", model, extract=True)
    # the three-step reply ends in \boxed{X}, not "the answer is X": the extraction turn reads no answer
    assert len(log) == 8 and scores["no_answer"]["total"] == 4
