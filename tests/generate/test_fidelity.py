import pytest

from spatialbench.generate.vsi.fidelity import OFFICIAL_COUNTS, answer_text, count_rows, reproduced
from spatialbench.records.item import AnswerKind, Item

REL = "object_rel_distance"
QUESTION = (
    "Measuring from the closest point of each object, which of these objects ({}) is the closest to the tv?"
)


def official(choices, truth):
    options = [f"{chr(65 + i)}. {c}" for i, c in enumerate(choices)]
    return {
        "question_type": REL,
        "scene_name": "s",
        "question": QUESTION.format(", ".join(choices)),
        "options": options,
        "ground_truth": truth,
    }


def generated(choices, truth):
    row = official(choices, truth)
    return Item(
        id="0",
        benchmark="vsibench",
        task=REL,
        question=row["question"],
        options=tuple(row["options"]),
        ground_truth=truth,
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        scene_id="s",
    )


def test_answer_text_reads_the_named_option():
    assert answer_text(["A. sofa", "B. bed"], "B") == "bed"
    assert answer_text(None, "2.3") == "2.3"
    with pytest.raises(ValueError, match="names no option"):
        answer_text(["A. sofa"], "C")


def test_reproduced_needs_same_text_and_answer_or_any_choice_order():
    rows = [official(["sofa", "bed", "lamp", "chair"], "B"), official(["sofa", "bed", "lamp", "chair"], "A")]
    items = [generated(["bed", "sofa", "lamp", "chair"], "A")]  # the first row's question, choices reordered
    assert reproduced(rows, items) == {REL: (0, 2)}
    assert reproduced(rows, items, any_order=True) == {REL: (1, 2)}  # answer "bed" matches the first only


def test_count_rows_sets_counts_beside_the_official_ones():
    manifest = {"tasks": {"object_counting": {"count": 570}}}
    rows = {task: (gen, off, diff) for task, gen, off, diff in count_rows(manifest)}
    assert rows["object_counting"] == (570, 565, pytest.approx(5 / 565))
    assert rows["object_rel_direction_easy"] == (0, 217, -1.0)
    assert sum(OFFICIAL_COUNTS.values()) == 4318  # the 8 meta-info tasks of the 5,130 questions
