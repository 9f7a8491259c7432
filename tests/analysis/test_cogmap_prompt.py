"""The official cognitive-map prompt (App. B.4), the categories-of-interest rule and the map parser."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spatialbench.prompting.cogmap import (
    CategoryRuleError,
    categories_of_interest,
    format_map,
    map_prompt,
    map_then_answer_prefix,
)
from spatialbench.prompting.cogmap_parse import parse_map

# The prompt of the paper's App. B.4 (the Chinese version prints it) as the official code's cogmap branch
# sends it (vision-x-nyu/thinking-in-space, branch cogmap, gemini_api.py): the categories formatted as a
# Python list, the JSON example on a line of its own.
OFFICIAL = (
    '[Task]\nThis video captures an indoor scene. Your objective is to identify specific objects '
    'within the video, understand the spatial arrangement of the scene, and estimate the center '
    'point of each object, assuming the entire scene is represented by a 10x10 grid.\n\n[Rule]\n1. '
    "We provide the categories to care about in this scene: ['chair', 'tv']. Focus ONLY on these "
    'categories.\n2. Estimate the center location of each instance within the provided categories, '
    'assuming the entire scene is represented by a 10x10 grid.\n3. If a category contains multiple '
    "instances, include all of them.\n4. Each object's estimated location should accurately "
    'reflect its real position in the scene, preserving the relative spatial relationships among '
    'all objects.\n\n[Output]\nPresent the estimated center locations for each object as a list '
    'within a dictionary.\nSTRICTLY follow this JSON format:\n{"category name": [(x_1, y_1), ...], '
    '...}'
)


def test_map_prompt_is_the_official_text():
    assert map_prompt(["chair", "tv"]) == OFFICIAL


def test_map_prompt_lists_names_as_the_branch_formats_a_list():
    text = map_prompt(["dining table", "children's toy"])
    assert """in this scene: ['dining table', "children's toy"]. Focus ONLY""" in text
    assert text.endswith('format:\n{"category name": [(x_1, y_1), ...], ...}')


def test_grid_size_is_a_parameter():
    text = map_prompt(["chair", "tv"], grid_size=20)
    assert text == OFFICIAL.replace("10x10", "20x20")
    assert "{" not in text.replace('{"category name"', "")  # every placeholder filled


def test_map_prompt_refuses_no_category_and_tiny_grid():
    with pytest.raises(ValueError, match="at least one category"):
        map_prompt([])
    with pytest.raises(ValueError, match="grid_size"):
        map_prompt(["chair"], grid_size=1)


def test_map_then_answer_prefix_is_the_papers_sentence():
    assert map_then_answer_prefix() == (
        "According to the original video and the predicted objects' center locations, "
        "answer the following question:"
    )


REL_DIST = (
    "Measuring from the closest point of each object, which of these objects (chair, sofa, table, stove) "
    "is the closest to the tv?"
)
REL_DIR_HARD = (
    "If I am standing by the sofa and facing the stove, is the tv to my front-left, front-right, "
    "back-left, or back-right?\nThe directions refer to the quadrants of a Cartesian plane (if I am "
    "standing at the origin and facing along the positive y-axis)."
)


def test_rel_distance_names_choices_and_reference():
    options = ["A. chair", "B. sofa", "C. table", "D. stove"]
    assert categories_of_interest("object_rel_distance", REL_DIST, options) == (
        "chair", "sofa", "table", "stove", "tv")
    expected = ("chair", "sofa", "table", "stove", "tv")
    assert categories_of_interest("object_rel_distance", REL_DIST) == expected


def test_rel_direction_names_the_three_objects():
    assert categories_of_interest("object_rel_direction_hard", REL_DIR_HARD) == ("sofa", "stove", "tv")
    easy = "If I am standing by the bed and facing the tv, is the table to the left or the right of the tv?"
    assert categories_of_interest("object_rel_direction_easy", easy) == ("bed", "tv", "table")


def test_abs_distance_names_two_objects_and_other_tasks_have_no_rule():
    question = ("Measuring from the closest point of each object, what is the direct distance between the "
                "trash can and the door (in meters)?")
    assert categories_of_interest("object_abs_distance", question) == ("trash can", "door")
    assert categories_of_interest("room_size_estimation", "What is the size of this room?") is None


def test_off_template_question_is_an_error_naming_it():
    with pytest.raises(CategoryRuleError, match="Which is nearer"):
        categories_of_interest("object_rel_distance", "Which is nearer?")


def test_format_map_writes_the_prompts_output_format():
    assert format_map({"chair": [(1, 2), (3.5, 4.25)], "tv": [(0, 9)]}) == (
        '{"chair": [(1, 2), (3.5, 4.25)], "tv": [(0, 9)]}')


def test_format_map_round_trips_through_the_parser():
    points = {"chair": ((1.0, 2.0), (3.5, 4.25)), "tv": ((0.0, 9.0),)}
    assert parse_map(format_map(points), ["chair", "tv"]).points == points


CATS = ["chair", "tv", "sofa"]


def test_tuples_and_case_insensitive_keys():
    parsed = parse_map('{"chair": [(1, 2), (3, 4)], "TV": [(5, 6)]}', CATS)
    assert parsed.points == {"chair": ((1, 2), (3, 4)), "tv": ((5, 6),)}
    assert parsed.missing == ("sofa",) and parsed.unknown == () and parsed.problems == ()


def test_code_fence_trailing_prose_single_point_and_unknown_category():
    text = 'Sure!\n```json\n{"chair": [[1,2]], "sofa": [4, 5], "lamp": [(1,1)],}\n```\nHope this helps.'
    parsed = parse_map(text, CATS)
    assert parsed.points == {"chair": ((1, 2),), "sofa": ((4, 5),)}
    assert parsed.unknown == ("lamp",) and parsed.missing == ("tv",)


def test_echoed_format_example_is_skipped_and_non_json_read_key_by_key():
    text = 'Format {"category name": [(x_1, y_1), ...]}. Map: {chair: (1, 2), tv: [(3, 4), (5,]}'
    parsed = parse_map(text, CATS)
    assert parsed.points == {"chair": ((1, 2),)}
    assert parsed.problems == ("map is not JSON; read key by key", "'tv': 3 coordinates (need pairs)")


def test_point_objects_repeated_keys_and_bad_values():
    text = '{"chair": [{"x": 1, "y": 2}], "chair": [(7, 8)], "tv": "left", "sofa": [NaN, 1, 2, 3]}'
    parsed = parse_map(text, CATS)
    assert parsed.points == {"chair": ((1, 2), (7, 8)), "sofa": ((2, 3),)}
    assert parsed.problems == (
        "'tv': value 'left' is not a list of points",
        "'sofa': 1 non-finite point(s) dropped",
    )


def test_think_block_is_ignored():
    parsed = parse_map('<think>{"chair": [(0, 0)]}</think>{"tv": [(2, 3)]}', CATS)
    assert parsed.points == {"tv": ((2, 3),)}


@pytest.mark.parametrize("text", ["no map", "", "{{{{", "}{", "{:}", "[" * 5000, None, 42])
def test_nothing_to_read_is_reported(text):
    parsed = parse_map(text, CATS)
    assert not parsed.found and parsed.missing == tuple(CATS) and parsed.problems


def test_without_categories_every_key_is_kept():
    assert parse_map('{"chair": [(1, 2)], "Bed ": [[3, 4]]}').points == {"chair": ((1, 2),), "Bed": ((3, 4),)}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='{}[]()":,.-0123456789 chairtvNa\n`', max_size=200))
def test_parser_never_raises(text):
    parse_map(text, CATS)


@pytest.mark.parametrize("body", ["a" * 30000, "a " * 15000, "ab:" * 10000])
def test_long_prose_in_braces_stays_linear(body):
    import time

    start = time.perf_counter()
    parsed = parse_map("{" + body + "}", CATS)
    assert not parsed.found
    assert time.perf_counter() - start < 3.0  # was 20 s with an unbounded key pattern (quadratic)
