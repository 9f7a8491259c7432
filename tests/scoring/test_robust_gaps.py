"""Robust extraction: the gaps a newcomer found (issue 10, report item 8), each against a hand reading.

Choices (options A. sofa, B. chair, C. table, D. bed): a hedge naming two letters, bracketed or with
``maybe`` / ``perhaps`` between them, is no answer; the ideographic full stop, full-width letters and
invisible format characters (zero-width space, word joiner, BOM) around a letter do not hide it.
Numbers: mixed numbers ``1 1/2`` and vulgar fractions ``1½`` / ``½`` are their value.
A folder of prediction tables beside other files (VLMEvalKit's output folder holds the annotations
``.jsonl`` too) is refused, naming both, never read as JSONL predictions.
"""

import shutil

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.scoring.extraction import extract_choice
from spatialbench.scoring.robust_choice import robust_choice
from spatialbench.scoring.robust_number import robust_number
from support.shared_data import require_file

OPTIONS = ["A. sofa", "B. chair", "C. table", "D. bed"]
METRES = "What is the distance between the sofa and the bed (in meters)?"


@pytest.mark.parametrize("text", ["(B) or maybe (C)", "B or maybe C", "(B), perhaps (C)", "B (or C)",
                                  "[B] and possibly [C]", "B, or perhaps C", "B or C", "B and C"])
def test_bracketed_and_softened_hedges_are_no_answer(text):
    assert robust_choice(text, OPTIONS).value is None, text
    assert robust_choice(text, OPTIONS).rule == "no_answer:hedged"


def test_the_hedge_rule_wins_over_never_below_official():
    # official reads the first token: B. Robust says the response names two letters (documented).
    assert extract_choice("B or C", OPTIONS, mode="official").value == "B"
    assert robust_choice("B or C", OPTIONS).value is None


@pytest.mark.parametrize("text", ["B。", "Ｂ。", "B\u200b", "\u200bB\u200b", "B\u200b.", "B\u2060", "\ufeffB",
                                  "Answer: B\u200b", "(\u200bB\u200b)", "B\u00ad"])
def test_ideographic_stops_full_width_and_invisible_characters(text):
    assert robust_choice(text, OPTIONS).value == "B", repr(text)


def test_self_correction_still_wins():
    assert robust_choice("B. Actually C", OPTIONS).value == "C"


@pytest.mark.parametrize(("text", "expected"), [
    ("1 1/2", 1.5), ("1½", 1.5), ("½", 0.5), ("2 ½ meters", 2.5), ("about 1 1/2 m", 1.5),
    ("10 3/4", 10.75), ("3 1/2 to 4", 3.75), ("1⅓", 1 + 1 / 3), ("1\u200b.5", 1.5),
])
def test_mixed_numbers_and_vulgar_fractions(text, expected):
    got = robust_number(text, METRES).value
    assert (got is None and expected is None) or got == pytest.approx(expected), (text, got)


def test_not_a_mixed_number_stays_as_it_was():
    assert robust_number("1/2", METRES).value == 0.5
    assert robust_number("2 3/2", METRES).value is None  # not a proper fraction: two values, no answer
    assert robust_number("rooms 1 2", METRES).value is None


def test_a_vlmevalkit_output_folder_with_its_annotations_jsonl_is_refused(shared_data, tmp_path):
    root = shared_data / "vlmevalkit"
    annotations = require_file(root / "demo_seed5_annotations.jsonl")
    require_file(root / "noisy_loopback_VSI-Bench_32frame.xlsx")
    result = CliRunner().invoke(app, ["score", "-a", str(annotations), "-p", str(root)])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        f"error: {root}: a folder of prediction tables (noisy_loopback_VSI-Bench_32frame.xlsx, "
        "noisy_loopback_VSI-Bench_32frame_extract_matching.xlsx, "
        "noisy_loopback_VSI-Bench_32frame_extract_matching_acc.csv) and other prediction files "
        "(demo_seed5_annotations.jsonl, status.json); give the prediction file itself"]
    # one table beside a .jsonl is refused too: the folder does not say which file holds the predictions
    shutil.copy(root / "noisy_loopback_VSI-Bench_32frame.xlsx", tmp_path)
    shutil.copy(annotations, tmp_path)
    result = CliRunner().invoke(app, ["score", "-a", str(annotations), "-p", str(tmp_path)])
    assert result.exit_code == 2 and "give the prediction file itself" in result.output, result.output
    result = CliRunner().invoke(app, ["score", "-a", str(annotations), "-p",
                                      str(tmp_path / "noisy_loopback_VSI-Bench_32frame.xlsx")])
    assert result.exit_code == 0, result.output
