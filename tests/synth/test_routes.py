"""Route planning: hand-built kitchen and random rooms; routes replayed from their phrased text."""

from __future__ import annotations

import re

import numpy as np
import pytest
import shapely

from spatialbench.generate.synthetic import route_task, route_world
from spatialbench.generate.vsi.base import Candidate
from spatialbench.generate.vsi.route import Route, route_candidate
from spatialbench.synth.freespace import FreeSpaceMap, free_space_map
from spatialbench.synth.generator import SceneConfig, generate_scene
from spatialbench.synth.routes import (
    Forward,
    PlannerSettings,
    Pose,
    RouteStats,
    RouteWorld,
    Turn,
    execute_route,
    facing,
    plan_route,
    plan_scene_routes,
    route_record,
)
from spatialbench.synth.routes import (
    Route as PlannedRoute,
)

CELL = 0.1
MARGIN = 0.25  # robot radius: cells closer than this to a wall or object are not walkable


def make_world(width: float, depth: float, boxes: dict[str, tuple[float, float, float, float]]) -> RouteWorld:
    """A width x depth room (a corner at the world origin) with axis-aligned boxes (x0, y0, x1, y1).

    Cell centres lie on multiples of 0.1 m (cell (0, 0) is centred on the origin).
    """
    cols, rows = int(round(width / CELL)) + 1, int(round(depth / CELL)) + 1
    x, y = np.meshgrid(np.arange(cols) * CELL, np.arange(rows) * CELL)
    footprints = {name: shapely.box(*b) for name, b in boxes.items()}
    points = shapely.points(x, y)
    free = (x > 0) & (x < width) & (y > 0) & (y < depth)
    walkable = (x >= MARGIN) & (x <= width - MARGIN) & (y >= MARGIN) & (y <= depth - MARGIN)
    for poly in footprints.values():
        free &= ~shapely.contains(poly, points)
        walkable &= shapely.distance(poly, points) > MARGIN + 1e-9
    origin = np.array([-CELL / 2, -CELL / 2])
    return RouteWorld(FreeSpaceMap(free, walkable, origin, CELL, MARGIN), footprints)


def phrase(route: PlannedRoute) -> Candidate:
    """The planned route phrased through the route schema of the VSI-Bench generator."""
    record = Route.model_validate(route_record(route, "kitchen", "synthetic"))
    return route_candidate(record, np.random.default_rng(1))


KITCHEN = {
    "stove": (2.8, 0.0, 3.2, 0.4),  # against the bottom wall
    "window": (5.9, 0.3, 6.0, 1.2),  # in the right wall
    "refrigerator": (5.5, 3.0, 6.0, 3.6),  # right wall, far end
}


def kitchen_route(world: RouteWorld, seed: int) -> PlannedRoute | None:
    """The planned route from the stove to the fridge of ``world`` with ``default_rng(seed)``."""
    return plan_route(
        world, "stove", "refrigerator", sorted(KITCHEN), np.random.default_rng(seed), PlannerSettings()
    )


def test_kitchen_route_matches_hand_plan() -> None:
    # Hand plan: the robot stands in front of the stove (x 3.0, y 0.7: the first free cell above its
    # centroid) facing it (-y). The fridge is 2.3 m or more from any cell it can walk to in one move, so:
    # turn left (+x), walk along y = 0.7 to x = 5.6 (0.3 m from the window; 5.7 is within the robot
    # margin of it), turn left (+y), walk to y = 2.7 (0.3 m from the fridge; 2.8 is within the margin).
    # (Seed 3 draws the start-facing form, which the planner picks in 7 of 30 routes where both exist.)
    world = make_world(6.0, 4.0, KITCHEN)
    route = kitchen_route(world, 3)
    assert route is not None
    assert (route.start, route.facing, route.goal) == ("stove", "stove", "refrigerator")
    assert route.start_pose == Pose(7, 30, 3)
    assert route.actions == (Turn.LEFT, Forward("window"), Turn.LEFT, Forward("refrigerator"))
    assert execute_route(world, route.start_pose, route.actions, PlannerSettings()) == Pose(27, 56, 1)


def test_kitchen_question_wording() -> None:
    world = make_world(6.0, 4.0, KITCHEN)
    route = kitchen_route(world, 3)
    assert route is not None
    q = phrase(route)
    assert q.question == (
        "You are a robot beginning at the stove facing the stove. You want to navigate to the "
        "refrigerator. You will perform the following actions (Note: for each [please fill in], choose "
        "either 'turn back,' 'turn left,' or 'turn right.'): 1. [please fill in] 2. Go forward until the "
        "window 3. [please fill in] 4. Go forward until the refrigerator. You have reached the final "
        "destination."
    )
    assert len(q.choices) == 4 and len(set(q.choices)) == 4
    assert q.answer == "Turn Left, Turn Left"


def test_kitchen_route_facing_another_landmark() -> None:
    # Hand plan of the other form: at the same cell in front of the stove (x 3.0, y 0.7) facing +x, the way
    # ahead ends at x 5.7 and the blocked cell beyond (x 5.8) is 0.1 m from the window: "facing the window".
    # Go forward until the window (to x 5.6), turn left (+y), go forward until the fridge (to y 2.7).
    world = make_world(6.0, 4.0, KITCHEN)
    route = kitchen_route(world, 0)
    assert route is not None
    assert (route.start, route.facing, route.goal) == ("stove", "window", "refrigerator")
    assert route.start_pose == Pose(7, 30, 0)
    assert route.actions == (Forward("window"), Turn.LEFT, Forward("refrigerator"))
    assert execute_route(world, route.start_pose, route.actions, PlannerSettings()) == Pose(27, 56, 1)
    assert phrase(route).question.startswith("You are a robot beginning at the stove facing the window.")


def test_start_facing_itself_at_the_official_rate() -> None:
    # Official route questions begin "at X facing X" in 7 of 30. Where both forms exist (the kitchen's
    # stove: facing the stove or the window), 1,000 seeds should give 233 +- 40 (3 binomial sd of 13.4).
    world = make_world(6.0, 4.0, KITCHEN)
    facing = [
        plan_route(
            world, "stove", "refrigerator", sorted(KITCHEN), np.random.default_rng(seed), PlannerSettings()
        )
        for seed in range(1000)
    ]
    share = sum(route is not None and route.facing == "stove" for route in facing)
    assert 193 <= share <= 273


def test_facing_a_landmark_in_plain_sight() -> None:
    # From (1.0, 2.0) looking +x the way ahead ends at the empty right wall (x 6); the tv's centroid
    # (4.0, 2.8) lies atan(0.8 / 3.0) = 14.9 deg off the heading (within 20 deg), in sight: "facing the tv".
    # A shelf between them (x 2.4..2.6, y 2.3..3.4; 0.3 m beside the way, 29.5 deg off) hides it: nothing.
    tv = {"tv": (3.9, 2.6, 4.1, 3.0)}
    assert facing(make_world(6.0, 4.0, tv), Pose(20, 10, 0)) == "tv"
    assert facing(make_world(6.0, 4.0, {**tv, "shelf": (2.4, 2.3, 2.6, 3.4)}), Pose(20, 10, 0)) is None


def test_one_move_route_needs_min_moves_one() -> None:
    # Start at the window facing it (+x); the fridge is to the left: turn left (+y), walk to it. That is one
    # move: below the default two, allowed with min_moves=1, and then a one-turn question has 3 options.
    world = make_world(6.0, 4.0, {"window": (5.9, 1.0, 6.0, 2.0), "refrigerator": (5.5, 3.0, 6.0, 3.6)})
    names, stats = ["window", "refrigerator"], RouteStats()
    assert (
        plan_route(world, "window", "refrigerator", names, np.random.default_rng(0), PlannerSettings(), stats)
        is None
    )
    assert stats.removed == {"too few moves or no turn": 1}
    one = PlannerSettings(min_moves=1)
    route = plan_route(world, "window", "refrigerator", names, np.random.default_rng(0), one)
    assert route is not None and route.actions == (Turn.LEFT, Forward("refrigerator"))
    assert sorted(phrase(route).choices) == ["Turn Back", "Turn Left", "Turn Right"]


def test_unreachable_goal_is_counted() -> None:
    # A wall of boxes splits the room: no route crosses it.
    boxes = {"sofa": (0.5, 0.0, 1.0, 0.5), "tv": (5.0, 0.0, 5.5, 0.5), "wall": (2.9, 0.0, 3.1, 4.0)}
    world = make_world(6.0, 4.0, boxes)
    stats = RouteStats()
    assert (
        plan_route(world, "sofa", "tv", ["sofa", "tv"], np.random.default_rng(0), PlannerSettings(), stats)
        is None
    )
    assert stats.candidates == 1 and sum(stats.removed.values()) == 1


def test_route_reachable_by_two_turn_choices_is_ambiguous() -> None:
    # The goal's footprint has two parts at the same height on the left and right walls: from the tv,
    # "turn left" and "turn right" both reach "the counter", so no question can be asked.
    counter = shapely.MultiPolygon([shapely.box(0.0, 2.0, 0.4, 3.0), shapely.box(5.6, 2.0, 6.0, 3.0)])
    world = make_world(6.0, 4.0, {"tv": (2.7, 3.7, 3.3, 4.0)})
    world = RouteWorld(world.free_map, {"tv": shapely.box(2.7, 3.7, 3.3, 4.0), "counter": counter})
    stats = RouteStats()
    rng, one_move = np.random.default_rng(0), PlannerSettings(min_moves=1)
    assert plan_route(world, "tv", "counter", ["tv", "counter"], rng, one_move, stats) is None
    assert stats.removed == {"ambiguous turns": 1}


STEP = re.compile(r"(\d+)\. (\[please fill in\]|Go forward until the (.+?))(?= \d+\. |\. You have reached)")


def parse_actions(question: str, option: str) -> list[Turn | Forward]:
    """Actions read back from the question text, the blanks filled from an option's text."""
    body = question.split("'turn right.'): ", 1)[1]
    turns = iter(Turn(t) for t in option.split(", "))
    return [next(turns) if m.group(2).startswith("[") else Forward(m.group(3)) for m in STEP.finditer(body)]


def random_room(rng: np.random.Generator) -> RouteWorld:
    """A 7 x 5 m room with up to 9 axis-aligned objects that do not overlap."""
    boxes: dict[str, tuple[float, float, float, float]] = {}
    names = ["bed", "sofa", "tv", "table", "desk", "stove", "sink", "toilet", "lamp", "plant", "washer"]
    for name in rng.permutation(names)[:9]:
        for _ in range(20):
            w, d = rng.uniform(0.3, 1.5, 2)
            x, y = rng.uniform(0, 7 - w), rng.uniform(0, 5 - d)
            cand = shapely.box(x, y, x + w, y + d)
            if all(cand.distance(shapely.box(*b)) > 0.8 for b in boxes.values()):
                boxes[str(name)] = (x, y, x + w, y + d)
                break
    return make_world(7.0, 5.0, boxes)


@pytest.mark.parametrize("seed", range(4))
def test_phrased_routes_replay_to_goal_and_wrong_options_do_not(seed: int) -> None:
    rng = np.random.default_rng(seed)
    world = random_room(rng)
    settings = PlannerSettings()
    routes = plan_scene_routes(world, rng, settings, max_routes=6)
    assert routes, "a 7 x 5 m room with spaced objects always has some route"
    for route in routes:
        q = phrase(route)
        goal_field = world.distance[route.goal]
        for option in q.choices:
            actions = parse_actions(q.question, option)
            assert actions[-1] == Forward(route.goal)
            end = execute_route(world, route.start_pose, actions, settings)
            if option == q.answer:
                assert end is not None and goal_field[end.row, end.col] <= settings.reach
            else:
                assert end is None


# Rooms per type: a single seed's route count moves with every layout change of the room generator
# (living room seed 4: 7 routes after the sofa cushions, >= 10 before), so the count is asserted over a
# few rooms. Measured on living rooms seeds 0-3 at 13:10: 2 + 7 + 16 + 9 routes; kitchens 20 + 30 + 14 + 26.
ROOM_SEEDS = range(4)
MIN_ROUTES_OVER_ROOMS = 10  # 2.5 per room: far below what the planner finds, far above a broken planner (0)


@pytest.mark.parametrize("room_type", ["living room", "kitchen"])
def test_routes_on_generated_rooms_replay_from_their_text(room_type: str) -> None:
    total = 0
    for seed in ROOM_SEEDS:
        scene = generate_scene(SceneConfig(room_type=room_type), seed=seed)
        free_map = free_space_map(scene)
        result, records = route_task(scene, free_map, np.random.default_rng(seed))
        total += len(result.candidates)
        _assert_routes_replay(scene, free_map, result.candidates, records)
    assert total >= MIN_ROUTES_OVER_ROOMS


def _assert_routes_replay(scene, free_map, candidates, records) -> None:
    """The answer's actions reach the goal from the recorded start pose; every wrong option fails."""
    world = route_world(scene, free_map)
    settings = PlannerSettings()
    for cand, record in zip(candidates, records, strict=True):
        start = Pose(*record["metadata"]["start_pose"])
        goal = record["goal"].removeprefix("the ")
        for choice in cand.choices:
            end = execute_route(world, start, parse_actions(cand.question, choice), settings)
            if choice == cand.answer:
                assert end is not None and world.distance[goal][end.row, end.col] <= settings.reach
            else:
                assert end is None, (cand.question, choice)
