"""ReVSI: one run per frame budget, each scored against that budget's own ground truth, VSI-Bench rules.

The release layout (one config per budget, ``video.zip`` holding ``<budget>/<scene>.mp4``) is built here with
two budgets, ``16_frame`` and ``all_frame``, whose ground truths differ on two questions. VLMEvalKit's
``ReVSI.evaluate`` (``vlmeval/dataset/revsi.py``, the rule the release is evaluated with) is written again in
``_kit_evaluate``; per-item scores and every column agree with a loopback run of each budget (Δ 0).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from spatialbench.benchmarks import get_benchmark
from support.image_tables import write_parquet
from support.scripted_runs import run_items, scripted_run
from support.videos import encode_indexed_video

DIRECTIONS = ["A. left", "B. right", "C. back", "D. front"]
# (question_type, scene, options, ground truth at 16 frames, at all frames, the scripted response)
CASES = [
    ("object_counting_single", "scene0", None, "3", "4", "4"),
    ("object_counting_multiple", "scene0", None, "2", "2", "2 chairs"),
    ("object_abs_distance", "scene1", None, "1.5", "1.5", "2.0"),
    ("room_size_estimation_single", "scene1", None, "20", "20", "about 20"),
    ("object_rel_direction_forward_easy", "scene0", DIRECTIONS[:3], "A", "A", "A."),
    ("object_rel_direction_backward_hard", "scene1", DIRECTIONS[:3], "B", "C", "B"),
    ("object_rel_distance_closest", "scene0", DIRECTIONS, "A", "A", "The answer is A"),
    ("route_planning", "scene1", DIRECTIONS, "D", "D", "D"),
]
# by hand (first token; MRA over θ = .50 ... .95 with |ŷ-y|/y <= 1-θ): 4 vs 3 → 0.333 → 4 of 10 = 0.4;
# "2" vs 2 → 1; 2.0 vs 1.5 → 0.4; "about" → 0; A. → A 1; B vs B 1 (16) / vs C 0 (all); "The" → 0; D 1
SCORES = {"16": [0.4, 1.0, 0.4, 0.0, 1.0, 1.0, 0.0, 1.0], "all": [1.0, 1.0, 0.4, 0.0, 1.0, 0.0, 0.0, 1.0]}
FRAMES = {"16": 16, "all": 150}
KIT_MCQ = [
    "object_rel_direction_forward_easy",
    "object_rel_direction_backward_easy",
    "object_rel_direction_forward_hard",
    "object_rel_direction_backward_hard",
    "object_rel_distance_closest",
    "object_rel_distance_farthest",
    "route_planning",
]


def _question(k: int) -> str:
    return f"ReVSI question {k}: about the room?"


def write_release(folder: Path) -> Path:
    for budget, column in (("16", 3), ("all", 4)):
        subset = f"{budget}_frame"
        rows = [
            {
                "id": k,
                "scene_id": c[1],
                "question_type": c[0],
                "question": _question(k),
                "options": c[2],
                "ground_truth": c[column],
            }
            for k, c in enumerate(CASES)
        ]
        write_parquet(rows, folder / subset / "test-00000-of-00001.parquet")
        for scene in ("scene0", "scene1"):
            video = folder / "revsi_videos" / subset / f"{scene}.mp4"
            video.parent.mkdir(parents=True, exist_ok=True)
            encode_indexed_video(video, FRAMES[budget], 64, 64)
    return folder


def _mra(pred: float, target: float) -> float:
    conf = np.linspace(0.5, 0.95, int((0.95 - 0.5) / 0.05 + 2))
    return float(((abs(pred - target) / target) <= (1 - conf)).mean())


def _kit_evaluate(frame: pd.DataFrame) -> tuple[list[float], dict[str, float]]:
    """``ReVSI.evaluate`` again: first token, exact letter / MRA, per-type means, sub-types pooled."""
    scores = []
    for _, row in frame.iterrows():
        pred = str(row["prediction"]).strip().split(" ")[0].rstrip(".").strip()
        if row["question_type"] in KIT_MCQ:
            scores.append(1.0 if pred.lower() == str(row["ground_truth"]).lower() else 0.0)
            continue
        try:
            scores.append(_mra(float(pred), float(row["ground_truth"])))
        except (TypeError, ValueError, ZeroDivisionError):
            scores.append(0.0)
    frame = frame.assign(accuracy=scores)
    out = {f"{t}_accuracy": g["accuracy"].mean() for t, g in frame.groupby("question_type")}
    for name, parts in (
        ("object_rel_direction", ["forward_easy", "backward_easy", "forward_hard", "backward_hard"]),
        ("object_rel_distance", ["closest", "farthest"]),
        ("object_counting", ["single", "multiple"]),
        ("room_size_estimation", ["single", "multiple"]),
    ):
        values = [out.pop(f"{name}_{p}_accuracy") for p in parts if f"{name}_{p}_accuracy" in out]
        if values:
            out[f"{name}_accuracy"] = float(np.mean(values))
    out["overall_accuracy"] = sum(out.values()) / len(out)
    return scores, out


def test_each_budget_has_its_own_ground_truth(tmp_path: Path) -> None:
    data = write_release(tmp_path)
    spec = get_benchmark("revsi")
    small, full = spec.load_items(data, budget="16"), spec.load_items(data)
    assert not small.errors and not full.errors and len(small) == len(full) == len(CASES)
    assert [i.ground_truth for i in small] == [c[3] for c in CASES]
    assert [i.ground_truth for i in full] == [c[4] for c in CASES]
    assert small[0].media[0].path == str(data / "revsi_videos" / "16_frame" / "scene0.mp4")
    assert small[0].answer_kind.value == "numerical" and small[4].options == tuple(DIRECTIONS[:3])
    with pytest.raises(ValueError, match="frame budget 'many'"):
        spec.check_options({"budget": "many"})


def test_a_bad_row_is_a_row_error(tmp_path: Path) -> None:
    rows = [
        {
            "id": 0,
            "scene_id": "s",
            "question_type": "object_counting",
            "question": "q",
            "options": None,
            "ground_truth": "3",
        },
        {
            "id": 1,
            "scene_id": "s",
            "question_type": "route_planning",
            "question": "q",
            "options": DIRECTIONS,
            "ground_truth": "E",
        },
    ]
    write_parquet(rows, tmp_path / "all_frame.parquet")
    loaded = get_benchmark("revsi").load_items(tmp_path)
    assert not loaded and [e.field for e in loaded.errors] == ["question_type", "ground_truth"]


@pytest.mark.slow
@pytest.mark.parametrize("budget", ["16", "all"])
def test_loopback_run_scores_the_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, budget: str) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = write_release(tmp_path / "data")
    responses = {_question(k): c[5] for k, c in enumerate(CASES)}
    out = tmp_path / "run"
    script = scripted_run("revsi", data, out, responses, "--option", f"budget={budget}")
    answered = script.answered()
    assert len(answered) == len(CASES) and {r.n_images for r in answered} == {min(FRAMES[budget], 128)}
    numeric = next(r.text for r in answered if _question(0) in r.text)
    assert numeric.endswith(f"{_question(0)}\nAnswer the question using a single integer or decimal number.")
    items = run_items(out)
    column = 3 if budget == "16" else 4
    frame = pd.DataFrame(
        [
            {
                "question_type": c[0],
                "options": c[2],
                "ground_truth": c[column],
                "prediction": items.loc[str(k), "prediction"],
            }
            for k, c in enumerate(CASES)
        ]
    )
    kit_scores, kit = _kit_evaluate(frame)
    ours = [items.loc[str(k), "score"] for k in range(len(CASES))]
    assert ours == pytest.approx(kit_scores) and kit_scores == pytest.approx(SCORES[budget])  # per item, Δ 0
    scores = json.loads((out / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(100 * kit["overall_accuracy"])  # Δ 0
    for key in (
        "object_counting",
        "object_abs_distance",
        "room_size_estimation",
        "object_rel_distance",
        "object_rel_direction",
        "route_planning",
    ):
        assert scores[key] == pytest.approx(100 * kit[f"{key}_accuracy"]), key
    expected = {"16": (70 + 40 + 0 + 0 + 100 + 100) / 6, "all": (100 + 40 + 0 + 0 + 50 + 100) / 6}
    assert scores["overall"] == pytest.approx(expected[budget])
