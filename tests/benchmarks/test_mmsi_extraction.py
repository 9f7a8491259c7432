"""MMSI-Video-Bench answer extraction: the official general extractor and the robust mode beside it."""

import pytest

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.mmsi_video import extract_official
from spatialbench.benchmarks.mmsi_video.extraction import official_choice

OPTIONS = ("A. left", "B. right", "C. front", "D. behind", "E. above", "F. below")


@pytest.mark.parametrize(
    ("response", "letter"),
    [
        ("\\boxed{C}", "C"),  # boxed{...}
        ("Reasoning... \\boxed{ E }. Done", "E"),
        ('{"answer": "B", "reason": "it is on the right"}', "B"),  # "answer": then cut at ","
        ("I think the answer is D.", "D"),  # answer is, cut at "."
        ("Answer: E", "E"),  # "Answer: "
        ("A. the lamp is on the left", "A"),  # leading single letter before the first "."
        ("<answer>F</answer>", "F"),  # tags removed first
        # the official rule reads after the LAST "answer is": " B. Final answer: C" -> "B"
        ("My answer is B. Final answer: C", "B"),
    ],
)
def test_official_extractor_reads(response, letter):
    assert extract_official(response) == letter


@pytest.mark.parametrize(
    "response",
    [
        "(C)",  # "(C)" after cleaning is not a letter
        "answer: d",  # lower case: no rule matches, first sentence "answerd"
        "A seems close, but checking the timestamps, so the answer is (C)",  # "(C)"
        "The answer is C because it is left",  # "Cbecauseitisleft"
        "There is no answer here. C",  # "no answer" is a failure
        "Answer is C",  # capitalised "Answer is" is not a rule
        "",
        None,
    ],
)
def test_official_extractor_failures(response):
    assert extract_official(response) is None


@pytest.mark.parametrize(
    ("response", "letter"),
    [
        ("(C)", "C"),
        ("answer: d", "D"),
        ("A seems close, but checking the timestamps, so the answer is (C)", "C"),
        ("My answer is B. Final answer: C", "C"),
    ],
)
def test_robust_mode_reads_what_official_misses(response, letter):
    choice = get_benchmark("mmsi-video").scoring.extractors("robust").choice
    assert choice(response, OPTIONS).value == letter


def test_official_mode_of_the_benchmark_is_the_general_extractor():
    spec = get_benchmark("mmsi-video")
    assert spec.scoring.extractors("official").choice is official_choice
    choice = spec.scoring.extractors("official").choice
    assert choice("(C)", OPTIONS).value is None
    assert choice("(C)", OPTIONS).rule == "no_answer:official_general_extractor"
    assert choice("Answer: B", OPTIONS).value == "B"
