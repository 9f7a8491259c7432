import json

import numpy as np
import pytest
from pydantic import ValidationError

from spatialbench.generate.vsi import (
    GenerationSettings,
    Route,
    RouteError,
    RouteStep,
    assemble,
    load_routes,
    write_routes,
)
from spatialbench.generate.vsi.base import TaskResult
from spatialbench.generate.vsi.route import route_candidate

# official question 4960 (subset_300), scene 42899696, answer "Turn Right, Turn Left"
OFFICIAL_4960 = (
    "You are a robot beginning at the tv facing the bed. You want to navigate to the trash bin. You will "
    "perform the following actions (Note: for each [please fill in], choose either 'turn back,' 'turn left,' "
    "or 'turn right.'): 1. [please fill in] 2. Go forward until the cabinet 3. [please fill in] "
    "4. Go forward until the trash bin is on your right. You have reached the final destination."
)


@pytest.fixture(scope="module")
def official_rows(shared_data):
    path = shared_data / "vsibench" / "official_samples" / "subset_300.jsonl"
    return {r["id"]: r for r in map(json.loads, path.read_text().splitlines())}


def route_4960() -> Route:
    return Route(
        scene_id="42899696",
        dataset="arkitscenes",
        start="the tv",
        facing="the bed",
        goal="the trash bin",
        steps=(
            RouteStep(turn="right"),
            RouteStep(forward="the cabinet"),
            RouteStep(turn="left"),
            RouteStep(forward="the trash bin is on your right"),
        ),
    )


def test_official_question_text(official_rows):
    assert official_rows[4960]["question"] == OFFICIAL_4960
    assert route_4960().question() == OFFICIAL_4960


def test_candidate_answer_and_options():
    cand = route_candidate(route_4960(), np.random.default_rng(0))
    assert cand.answer == "Turn Right, Turn Left"
    assert len(cand.choices) == 4 and len(set(cand.choices)) == 4 and cand.answer in cand.choices


def test_one_turn_route_has_three_options_like_the_official_data(official_rows):
    # official 4966: "beginning at the blue chair and facing the fan beside the boxes" (free phrase)
    route = Route(
        scene_id="578511c8a9",
        start="the blue chair",
        facing="the fan beside the boxes",
        goal="the trash bin",
        beginning="the blue chair and facing the fan beside the boxes",
        steps=(
            RouteStep(text="Go forward until passing the tables on the right."),
            RouteStep(turn="left"),
            RouteStep(forward="the trash bin"),
        ),
    )
    assert route.question() == official_rows[4966]["question"]
    cand = route_candidate(route, np.random.default_rng(0))
    assert sorted(cand.choices) == ["Turn Back", "Turn Left", "Turn Right"] and cand.answer == "Turn Left"


def test_write_load_round_trip_and_assembly(tmp_path):
    path = tmp_path / "routes.jsonl"
    write_routes([route_4960()], path)
    assert load_routes(path) == [route_4960()]
    bench = assemble(
        {"route_planning": [TaskResult([route_candidate(route_4960(), np.random.default_rng(1))])]},
        GenerationSettings(),
    )
    assert bench.items[0].question == OFFICIAL_4960


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ([{"forward": "the bed"}], "1 to 6 turns"),
        ([{"turn": "left"}], "ends with a forward step"),
        ([{"turn": "left"}, {"turn": "right"}, {"forward": "the bed"}], "two turns in a row"),
        ([{"turn": "up"}, {"forward": "the bed"}], "steps.0.turn"),
    ],
)
def test_invalid_routes_name_file_line_and_field(tmp_path, steps, message):
    good = json.dumps(route_4960().model_dump(mode="json", exclude_none=True))
    bad = json.dumps(
        {"scene_id": "s", "start": "the tv", "facing": "the bed", "goal": "the bed", "steps": steps}
    )
    path = tmp_path / "routes.jsonl"
    path.write_text(good + "\n" + bad + "\n")
    with pytest.raises(RouteError, match=message) as err:
        load_routes(path)
    assert f"{path}:2:" in str(err.value)


def test_step_needs_exactly_one_kind():
    with pytest.raises(ValidationError):
        RouteStep(turn="left", forward="the bed")


def test_distractor_weights_by_hand():
    from spatialbench.generate.vsi.route import distractor_weights

    answer = ("left", "right")
    others = [("left", "left"), ("left", "back"), ("right", "left"), ("back", "back")]
    # one turn changed: 1.5 (x 0.2 per back); two changed: 1 (x 0.2 per back)
    weights = distractor_weights(answer, others, GenerationSettings())
    assert weights.tolist() == pytest.approx([1.5, 0.3, 1.0, 0.04])
    uniform = distractor_weights(answer, others, GenerationSettings(route_distractors="uniform"))
    assert uniform.tolist() == [1.0] * 4


def distractor_shares(settings):
    """(share of 2-turn distractors differing in one turn, share of "Turn Back" in distractor turns)."""
    route = route_4960()  # answer right, left
    one, back, turns = 0, 0, 0
    for seed in range(400):
        cand = route_candidate(route, np.random.default_rng(seed), settings=settings)
        for choice in cand.choices:
            if choice != cand.answer:
                seq = choice.split(", ")
                one += sum(a != b for a, b in zip(seq, ["Turn Right", "Turn Left"], strict=True)) == 1
                back += seq.count("Turn Back")
                turns += len(seq)
    return one / 1200, back / turns


def test_distractors_are_near_and_rarely_turn_back_like_the_official_options():
    # official 2-turn distractors differ in one turn 62-67 % of the time; "Turn Back": 10-16 % of their turns
    one, back = distractor_shares(GenerationSettings())
    assert 0.6 <= one <= 0.72 and 0.1 <= back <= 0.16  # measured 0.671, 0.145 over 400 seeds
    # uniform: 4 of the 8 other sequences differ in one turn; they hold 6 "back" in 16 turns (0.375)
    one, back = distractor_shares(GenerationSettings(route_distractors="uniform"))
    assert one == pytest.approx(0.5, abs=0.04) and back == pytest.approx(0.375, abs=0.03)
