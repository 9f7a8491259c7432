"""The peer toolkits' extraction modes reproduce their own per-item scores and overall on real files."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from spatialbench.benchmarks.vsibench import SPEC, load_vsibench
from spatialbench.scoring.peer_lmms_eval import first_number, strip_think
from spatialbench.scoring.peer_vlmevalkit import match_letter, match_number
from spatialbench.scoring.predictions import read_predictions
from spatialbench.scoring.scorer import score_items
from support.shared_data import require_file


def _score(annotations, predictions, extract):
    items = load_vsibench(annotations)
    read = read_predictions(predictions, items)
    return score_items(items, read.responses, SPEC.scoring, extract=extract, mra="official")


def test_lmms_eval_073_mode_gives_its_logged_item_scores_and_overall(shared_data):
    root = shared_data / "lmms_eval"
    log = require_file(root / "lmms_eval_0.7.3_samples_vsibench.jsonl")
    result = _score(require_file(root / "demo_seed3_annotations.jsonl"), log, "lmms-eval-0.7.3")
    assert result.table.average == pytest.approx(74.4673, abs=1e-4)
    assert result.table.average / 100 == pytest.approx(0.744673, abs=1e-6)  # lmms-eval rounds to 6 places
    rows = result.rows.set_index("id")["score"]
    logged = [json.loads(line)["vsibench_overall"] for line in log.read_text().splitlines()]
    assert len(logged) == 66
    for item in logged:
        expected = item.get("MRA:.5:.95:.05", item.get("accuracy"))
        assert rows[str(item["id"])] == pytest.approx(expected, abs=1e-12), item["id"]


def test_lmms_eval_072_mode_gives_the_061_figure(shared_data):
    root = shared_data / "lmms_eval"
    result = _score(require_file(root / "demo_seed3_annotations.jsonl"),
                    require_file(root / "lmms_eval_0.6.1_samples_vsibench.jsonl"), "lmms-eval-0.7.2")
    assert result.table.average / 100 == pytest.approx(0.6190029761904762, abs=1e-9)


def test_vlmevalkit_mode_gives_its_item_scores_and_overall(shared_data):
    root = shared_data / "vlmevalkit"
    result = _score(require_file(root / "demo_seed5_annotations.jsonl"),
                    require_file(root / "noisy_loopback_VSI-Bench_32frame.xlsx"), "vlmevalkit")
    assert result.table.average == pytest.approx(85.848, abs=1e-3)
    assert result.table.average == pytest.approx(85.84821428571428, abs=1e-9)
    theirs = pd.read_excel(require_file(root / "noisy_loopback_VSI-Bench_32frame_extract_matching.xlsx"),
                           sheet_name="ALL")
    rows = result.rows.set_index("id")["score"]
    assert len(theirs) == len(rows) == 61
    for _, row in theirs.iterrows():
        expected = row["hit"] if row["task_type"] == "MCQ" else row["MRA:.5:.95:.05"]
        assert rows[str(row["id"])] == pytest.approx(float(expected), abs=1e-12), row["id"]


@pytest.mark.parametrize(("text", "value"), [
    ("I think there are 3 windows.", 3.0), ("three hundred and twenty-one", 321.0),
    ("one apple, room 2", 1.0),
    ("room 2, one apple", 2.0), ("-1.5 m", -1.5), ("two thousand five", 2005.0), ("none", None), ("", None),
])
def test_lmms_eval_073_first_number(text, value):
    assert first_number(text) == value


def test_lmms_eval_073_think_strip():
    assert strip_think("<think>x</think> 219") == "219"
    assert strip_think("reasoning</think>B") == "B"  # the opening tag was in the prompt
    assert strip_think("<THINK>x</THINK> A") == "<THINK>x</THINK> A"  # case-sensitive, as lmms-eval


@pytest.mark.parametrize(("text", "letter"), [
    ("The answer is B.", "B"), ("**C**", "C"), ("<think>A or B?</think> A", "A"),
    ("(D)", "D"),
    ("A. pillow", "A"), ("<answer>C) sofa</answer>", "C"), ("I cannot tell", None), ("A or B", None),
])
def test_vlmevalkit_letter(text, letter):
    assert match_letter(text) == letter


@pytest.mark.parametrize(("text", "value"), [
    ("About 0.7 meters", 0.7), ("I think there are two radiators.", 2.0),
    ("It is approximately 50 cm.", 50.0), ("<think>3 or 4</think> 5", 5.0), ("between 2 and 3", 3.0),
    ("<answer>4.5 m</answer> or 6", 4.5), ("no", None),
])
def test_vlmevalkit_number(text, value):
    assert match_number(text) == value
