"""3DSRBench: the release's VLMEvalKit circular TSV (and a Parquet of it) loads, a loopback run scores it.

The official rules are written again here, apart from spatialbench: ``_can_infer`` (VLMEvalKit
``matching_util.can_infer`` under exact matching), ``_kit_settings`` (VLMEvalKit ``_3DSRBench.evaluate``:
``hit_map[key] *= hit`` over the rows sharing a key, reported over the rows whose qid is a key) and the
release script's grouping (``qid.split('-')[0]``, the four main types). The run's tables agree (Δ 0).

The fixture: 4 questions, 11 variants. The scripted model sees text only, so it answers a question and its
flipped twin alike: FlipEval catches it on the left/right question.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.shared.kit_mcq import kit_choice, kit_prompt
from support.image_tables import b64, png, write_parquet, write_tsv
from support.scripted_runs import breakdown_and_report, run_items, scripted_run

Q = "Consider the real-world 3D locations of the objects."
# (qid, category, options, answer, the scripted response)
ROWS = [
    ("H0000001", "height_higher", ["baseball glove", "red hat"], "B", "B"),
    ("H0000001-1", "height_higher", ["red hat", "baseball glove"], "A", "The answer is A."),
    ("O0000002", "orientation_on_the_left", ["left", "right"], "A", "A"),
    ("O0000002-1", "orientation_on_the_left", ["right", "left"], "B", "B"),
    ("O0000002-flip", "orientation_on_the_left", ["left", "right"], "B", "A"),  # same text, same answer
    ("O0000002-flip-1", "orientation_on_the_left", ["right", "left"], "A", "B"),
    ("L0000003", "location_above", ["yes", "no"], "A", "A"),
    ("L0000003-1", "location_above", ["no", "yes"], "B", "Answer: A"),
    ("M0000004", "multi_object_facing", ["the red chair", "the blue lamp", "the green sofa"], "C", "(C)"),
    ("M0000004-1", "multi_object_facing", ["the blue lamp", "the green sofa", "the red chair"], "B", "B."),
    (
        "M0000004-2",
        "multi_object_facing",
        ["the green sofa", "the red chair", "the blue lamp"],
        "A",
        "the green sofa",
    ),
]
# by hand: variants right 1 1 | 1 1 0 0 | 1 0 | 1 1 1 -> vanilla 8/11; flip groups 6/9; circular groups
# {H}=1 {O}=1 {O-flip}=0 {L}=0 {M}=1 -> 3/5; flip-circular {H}=1 {O}=0 {L}=0 {M}=1 -> 2/4
EXPECTED = {"vanilla": 800 / 11, "flip": 600 / 9, "circular": 60.0, "flip-circular": 50.0}
TYPES = {
    "height_higher": "height",
    "orientation_on_the_left": "orientation",
    "location_above": "location",
    "multi_object_facing": "multi_object",
}


def _question(qid: str) -> str:
    return f"{Q} Question about object {qid[:8]}?"


def _kit_rows() -> list[dict]:
    rows = []
    for k, (qid, category, options, answer, _) in enumerate(ROWS):
        letters = dict(zip("ABCD", options + [""] * (4 - len(options)), strict=True))
        rows.append(
            {
                "index": k,
                "qid": qid,
                "question": _question(qid),
                **letters,
                "answer": answer,
                "category": category,
                "image": b64(png(k)),
                "image_source": "MS-COCO",
                "image_url": f"http://images.cocodataset.org/train2017/{k:012d}.jpg",
            }
        )
    return rows


def _can_infer(answer: str, choices: dict[str, str]) -> str | bool:
    """VLMEvalKit ``can_infer`` (exact matching), again."""
    mod = answer
    for c in ".()[],:;!*#{}":
        mod = mod.replace(c, " ")
    splits = [x.strip() for x in mod.split()]
    count = sum(c in splits for c in choices)
    if count == 1:
        for ch in choices:
            if ch in splits and splits.index(ch) > len(splits) - 5:
                return ch
    elif count == 0 and "Z" in splits:
        return "Z"
    match = re.search(r"(?i)(?:correct\s+)?answer\s+is\s+\**([ABCD])\**", answer)
    if match and match.group(1).upper() in choices:
        return match.group(1).upper()
    low = answer.lower()
    if len(low) > 2 * sum(len(str(v)) for v in choices.values()):
        return False
    cands = [k for k in choices if str(choices[k]).lower() in low]
    return cands[0] if len(cands) == 1 else False


def _kit_settings(data: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """``_3DSRBench.evaluate`` again: per setting, the main rows with hit = product over their group."""
    keys = {
        "vanilla": lambda x: x,
        "flip": lambda x: x.replace("-flip", ""),
        "circular": lambda x: x[:8] if "-flip" not in x else x[:13],
        "flip-circular": lambda x: x[:8],
    }
    out = {}
    for name, key in keys.items():
        qid2key = {x: key(x) for x in data["qid"]}
        main = data[data["qid"].isin(set(qid2key.values()))].copy()
        hit_map = dict(zip(main["qid"], main["hit"], strict=True))
        if name != "vanilla":
            for x, y in zip(data["qid"], data["hit"], strict=True):
                hit_map[qid2key[x]] *= y
            main["hit"] = [hit_map[x] for x in main["qid"]]
        out[name] = main
    return out


def _release_script(data: pd.DataFrame) -> dict[str, float]:
    """The release's grouping: one group per ``qid.split('-')[0]``, accuracy per main type and overall."""
    agg: dict[str, list] = {}
    for qid, hit, category in zip(data["qid"], data["hit"], data["category"], strict=True):
        group = qid.split("-")[0]
        if group in agg:
            agg[group][0] *= hit
        else:
            agg[group] = [hit, category]
    result = {"overall": np.mean([s for s, _ in agg.values()])}
    for kind in ("height", "location", "orientation", "multi_object"):
        result[kind] = np.mean([s for s, c in agg.values() if TYPES[c] == kind])
    return result


def test_tsv_and_parquet_give_the_same_items(tmp_path: Path) -> None:
    spec = get_benchmark("3dsrbench")
    rows = _kit_rows()
    kit = spec.load_items(write_tsv(rows, tmp_path / "kit" / "3dsrbench_v1_vlmevalkit_circular.tsv"))
    parquet_rows = [{**r, "image": {"bytes": png(k), "path": None}} for k, r in enumerate(rows)]
    hf = spec.load_items(write_parquet(parquet_rows, tmp_path / "hf" / "3dsrbench.parquet"))
    assert not kit.errors and not hf.errors and len(kit) == len(ROWS)
    for a, b, (qid, category, options, answer, _) in zip(kit, hf, ROWS, strict=True):
        assert (a.id, a.task, a.ground_truth, a.options) == (b.id, b.task, b.ground_truth, b.options)
        assert (a.id, a.task, a.ground_truth, len(a.options)) == (qid, category, answer, len(options))
        assert Path(a.media[0].path).read_bytes() == Path(b.media[0].path).read_bytes()
    assert kit[8].metadata["type"] == "multi_object" and kit[8].options[2] == "C. the green sofa"
    assert kit_prompt(kit[0]) == (
        f"Question: {_question('H0000001')}\nOptions:\nA. baseball glove\nB. red hat\n"
        "Please select the correct answer from the options above. \n"
    )


def test_reader_is_the_kit_can_infer() -> None:
    cases = [
        *(r[4] for r in ROWS),
        "a red hat",
        "I think A is higher than B here",
        "Z",
        "C and A",
        "Cannot determine the answer",
        "answer is **b**",
        "The red hat. Or the baseball glove.",
    ]
    for text in cases:
        choices = {"A": "baseball glove", "B": "red hat"}
        official = _can_infer(text, dict(choices))
        ours = kit_choice(text, ("A. baseball glove", "B. red hat")).value
        assert ours == (official if official not in (False, "Z") else None), text


def test_a_bad_row_is_a_row_error(tmp_path: Path) -> None:
    rows = _kit_rows()[:2]
    rows[0]["answer"], rows[1]["category"] = "C", "height_lower"
    loaded = get_benchmark("3dsrbench").load_items(write_tsv(rows, tmp_path / "3dsr.tsv"))
    assert not loaded and [e.line for e in loaded.errors] == [2, 3]
    assert "not one of the options" in str(loaded.errors[0]) and "height_lower" in str(loaded.errors[1])


@pytest.mark.slow
def test_loopback_run_scores_every_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = write_tsv(_kit_rows(), tmp_path / "kit" / "3dsrbench_v1_vlmevalkit_circular.tsv")
    responses = {}
    for qid, _, options, _, response in ROWS:
        lines = "".join(f"{letter}. {text}\n" for letter, text in zip("ABCD", options, strict=False))
        responses[f"Question: {_question(qid)}\nOptions:\n{lines}"] = response
    out = tmp_path / "run"
    script = scripted_run("3dsrbench", data, out, responses)
    assert len(script.answered()) == len(ROWS) and all(r.n_images == 1 for r in script.answered())
    frame = pd.DataFrame(_kit_rows())
    items = run_items(out)
    frame["hit"] = [
        int(_can_infer(items.loc[q, "prediction"], {k: v for k, v in zip("ABCD", opts, strict=False)}) == a)
        for q, _, opts, a, _ in ROWS
    ]
    kit = _kit_settings(frame)
    release = _release_script(frame)
    scores = json.loads((out / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(100 * release["overall"]) == pytest.approx(50.0)  # Δ 0
    assert scores["overall"] == pytest.approx(100 * kit["flip-circular"]["hit"].mean())
    assert (
        (scores["height"], scores["location"], scores["orientation"], scores["multi_object"])
        == (
            100 * release["height"],
            100 * release["location"],
            100 * release["orientation"],
            100 * release["multi_object"],
        )
        == (100.0, 0.0, 0.0, 100.0)
    )
    broken, html = breakdown_and_report(out, tmp_path / "report")
    for name, expected in EXPECTED.items():
        assert 100 * kit[name]["hit"].mean() == pytest.approx(expected)
        section = broken.split(f"**3DSRBench: {name}**")[1].split("**3DSRBench")[0]
        main = kit[name].assign(kind=kit[name]["category"].map(TYPES))
        per_type = [
            main[main["kind"] == k]["hit"] for k in ("height", "location", "orientation", "multi_object")
        ]
        assert "| accuracy | " + " | ".join(f"{100 * h.mean():.1f}" for h in per_type) + " |" in section
        assert "| n | " + " | ".join(str(len(h)) for h in per_type) + " |" in section
    assert "<th>Multi-Object</th>" in html


def test_a_row_without_its_qid_is_a_row_error(tmp_path: Path) -> None:
    # a TSV without qid loaded with ids from index: variant groups lost, chance scored 45.5 not 15.0
    rows = _kit_rows()[:2]
    del rows[0]["qid"]
    loaded = get_benchmark("3dsrbench").load_items(write_tsv(rows, tmp_path / "3dsr.tsv"))
    assert [item.id for item in loaded] == [ROWS[1][0]] and [e.line for e in loaded.errors] == [2]
    assert "field 'qid'" in str(loaded.errors[0]) and "group a question's variants" in str(loaded.errors[0])


def test_chance_row_follows_the_setting_of_the_score() -> None:
    """A yes/no question asked as 4 variants: random guess is 1/2 alone, 1/4 for flip or circular (two
    variants both right), 1/16 = 6.25 for flip-circular (all four): what ``baseline random`` gives."""
    from spatialbench.benchmarks.threedsr import threedsr_breakdowns

    ids = ["Q0000000", "Q0000000-1", "Q0000000-flip", "Q0000000-flip-1"]
    rows = pd.DataFrame({"id": ids, "scene_id": "s", "task": "height_higher", "score": 1.0,
                         "answered": True, "n_options": 2})
    tables = threedsr_breakdowns([], rows)
    chance = {t.title: t.cells[0].chance for t in tables[:4]}
    assert chance == {"3DSRBench: vanilla": 50.0, "3DSRBench: flip": 25.0, "3DSRBench: circular": 25.0,
                      "3DSRBench: flip-circular": 6.25}
    assert tables[4].cells[0].chance == 6.25
