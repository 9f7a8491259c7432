"""EmbSpatial-Bench: the release JSON and the EASI TSV load alike; a loopback run scores per source.

The authors released no scoring code; VLMEvalKit's ``EmbSpatialBench`` (``embspatialbench.py``, then
``cal_scores.compute_mcq_score`` and ``eval_mcq_score``) is the rule: hit = exact_match of
``can_match_option(pred)`` and ``can_match_option(answer)``, overall = mean hit, one accuracy per
``data_source``. Its prompt and its aggregation are written again here (``_kit_prompt``, ``_kit_summary``);
the letter reader is ``can_match_option`` as ``scoring.peer_vlmevalkit.match_letter`` implements it
(checked item by item against VLMEvalKit's own output in tests/scoring/test_peer_modes.py). Per-item hits
and the table agree (Δ 0).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.embspatial import prompt_text
from spatialbench.scoring.peer_vlmevalkit import match_letter
from support.image_tables import b64, png, write_tsv
from support.scripted_runs import breakdown_and_report, run_items, scripted_run

OPTIONS = ["garage door", "cabinet", "table", "cart"]
# (data_source, relation, answer index, the scripted response)
CASES = [
    ("mp3d", "close", 2, "C"),
    ("mp3d", "far", 0, "The answer is B."),
    ("mp3d", "left", 1, "B: cabinet"),
    ("ai2thor", "under", 1, "<answer>B</answer>"),
    ("ai2thor", "above", 3, "I am not sure"),
    ("scannet", "right", 0, "A"),
    ("scannet", "close", 3, "D."),
]
RIGHT = [1, 0, 1, 1, 0, 1, 1]  # by hand: C=C, B!=A, B=B, B=B, none, A=A, D=D


def _question(k: int) -> str:
    return f"From your perspective, which object in image {k} is at the shortest distance?"


def _entries() -> list[dict]:
    return [
        {
            "data_source": s,
            "scene_id": f"scene{k % 3}",
            "question_id": f"{s}_{k}",
            "question": _question(k),
            "relation": r,
            "image": b64(png(k)),
            "answer_options": OPTIONS,
            "answer": a,
            "objects": [{"name": o, "bbox": [0, 0, 1, 1]} for o in OPTIONS],
        }
        for k, (s, r, a, _) in enumerate(CASES)
    ]


def write_release(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "embspatial_bench.json").write_text(json.dumps(_entries()))
    return folder / "embspatial_bench.json"


def _kit_prompt(question: str, options: list[str]) -> str:
    """``EmbSpatialBench.build_prompt`` again."""
    option_text = "\n".join(f"{'ABCD'[i]}: {options[i]}" for i in range(len(options)))
    return (
        "Question: "
        + question
        + "\n"
        + "Options:\n"
        + option_text
        + "\n"
        + "Give me the answer letter directly. The best answer is:"
    )


def _kit_summary(frame: pd.DataFrame) -> dict[str, float]:
    """``compute_mcq_score`` + ``eval_mcq_score`` again (rule-based)."""

    def exact(p: object, t: object) -> float:
        return 1.0 if str(p).strip().lower() == str(t).strip().lower() else 0.0

    frame["hit"] = [
        exact(match_letter(p), match_letter(a))
        for p, a in zip(frame["prediction"], frame["answer"], strict=True)
    ]
    summary = {"overall": frame["hit"].mean() * 100}
    for source in ("mp3d", "ai2thor", "scannet"):
        summary[f"{source}_accuracy"] = frame[frame["data_source"] == source]["hit"].mean() * 100
    return summary


def test_release_json_and_easi_tsv_give_the_same_items(tmp_path: Path) -> None:
    spec = get_benchmark("embspatial")
    release = spec.load_items(write_release(tmp_path / "hf"))
    rows = [
        {
            "index": k,
            "image": e["image"],
            "question": e["question"],
            "options": json.dumps(OPTIONS),
            "answer": "ABCD"[e["answer"]],
            "data_source": e["data_source"],
        }
        for k, e in enumerate(_entries())
    ]
    kit = spec.load_items(write_tsv(rows, tmp_path / "kit" / "EmbSpatialBench.tsv"))
    assert not release.errors and not kit.errors and len(release) == len(kit) == len(CASES)
    for a, b, (source, relation, answer, _) in zip(release, kit, CASES, strict=True):
        assert (a.dataset, a.ground_truth, a.options, a.question) == (
            b.dataset,
            b.ground_truth,
            b.options,
            b.question,
        )
        assert (a.dataset, a.task, a.ground_truth) == (source, relation, "ABCD"[answer])
        assert Path(a.media[0].path).read_bytes() == Path(b.media[0].path).read_bytes()
        assert prompt_text(a) == _kit_prompt(a.question, OPTIONS)
    assert release[0].scene_id == "scene0" and release[0].id == "mp3d_0"


def test_a_bad_entry_is_a_row_error(tmp_path: Path) -> None:
    entries = _entries()[:2]
    entries[0]["answer"], entries[1]["image"] = 7, ""
    (tmp_path / "embspatial_bench.json").write_text(json.dumps(entries))
    loaded = get_benchmark("embspatial").load_items(tmp_path)
    assert not loaded and [e.line for e in loaded.errors] == [1, 2]
    assert "not one of the options" in str(loaded.errors[0]) and "base64" in str(loaded.errors[1])


@pytest.mark.slow
def test_loopback_run_scores_per_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = write_release(tmp_path / "hf")
    responses = {_question(k): c[3] for k, c in enumerate(CASES)}
    out = tmp_path / "run"
    script = scripted_run("embspatial", data, out, responses)
    assert len(script.answered()) == len(CASES) and all(r.n_images == 1 for r in script.answered())
    assert all(r.text.endswith("The best answer is:") for r in script.answered())
    items = run_items(out)
    frame = pd.DataFrame(
        [
            {
                "data_source": e["data_source"],
                "answer": "ABCD"[e["answer"]],
                "prediction": items.loc[e["question_id"], "prediction"],
            }
            for e in _entries()
        ]
    )
    summary = _kit_summary(frame)
    assert list(frame["hit"]) == RIGHT
    assert list(items.loc[[e["question_id"] for e in _entries()], "score"]) == RIGHT  # per item, Δ 0
    scores = json.loads((out / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(summary["overall"]) == pytest.approx(500 / 7)  # Δ 0
    for source in ("mp3d", "ai2thor", "scannet"):
        assert scores[source] == pytest.approx(summary[f"{source}_accuracy"])
    assert (scores["mp3d"], scores["ai2thor"], scores["scannet"]) == (pytest.approx(200 / 3), 50.0, 100.0)
    broken, html = breakdown_and_report(out, tmp_path / "report")
    assert "EmbSpatial-Bench: accuracy per relation" in broken
    # above 0/1, close 2/2, far 0/1, left 1/1, right 1/1, under 1/1 (sorted by name)
    assert "| accuracy | 0.0 | 100.0 | 0.0 | 100.0 | 100.0 | 100.0 |" in broken
    assert "<th>ai2thor</th>" in html
