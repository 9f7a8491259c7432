"""The drawn tasks (rel. distance, rel. direction): draws per scene alone or to a fixed total (issue 10)."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from spatialbench.generate.vsi import GenerationSettings, generate_vsibench
from spatialbench.generate.vsi.allocation import DrawPlan, fixed_total_draws, total_ways
from spatialbench.generate.vsi.fidelity import item_key
from spatialbench.scene import Scene, load_meta_info, make_box
from spatialbench.scene.model import ObjectInstance

REL = "object_rel_distance"
LEVELS = {"easy": 1, "medium": 2, "hard": 2}  # direction_triples defaults
DIRECTION = [f"object_rel_direction_{level}" for level in LEVELS]
DRAWN = [REL, *DIRECTION]
N_OBJECTS = 8  # unique objects per hand scene: 8 x C(7, 4) = 280 choice sets, C(8, 3) = 56 triples


def random_scene(index: int) -> Scene:
    """A room of 8 unique boxes at seeded random places (sizes 0.3-1.5 m)."""
    rng = np.random.default_rng(1000 + index)
    objects = {}
    for k in range(N_OBJECTS):
        centre = [*rng.uniform(0, 6, size=2), 0.5]
        objects[f"thing{k}"] = (ObjectInstance(f"thing{k}", 0, make_box(centre, rng.uniform(0.3, 1.5, 3))),)
    return Scene(f"room{index:02d}", "synthetic", 30.0, np.zeros(3), objects, dict.fromkeys(objects, 1))


SCENES = [random_scene(i) for i in range(12)]
# exact distances: the hand expectation counts the sets each scene keeps, and a sampled estimate (the
# default) is seeded, so which sets pass the gap rules would move with the seed under test
UNCAPPED = {"caps": {}, "distance_method": "exact"}


def expected_totals(scenes: list[Scene]) -> dict[str, Fraction]:
    """The independent draw's mean per task, by hand: draws / units x questions kept when all are asked."""
    every = GenerationSettings(
        rel_distance_draws=10**9, direction_triples=dict.fromkeys(LEVELS, 10**9), **UNCAPPED
    )
    expected: dict[str, Fraction] = {}
    for scene in scenes:
        kept = generate_vsibench([scene], DRAWN, every).manifest["tasks"]
        units = {REL: N_OBJECTS * comb(N_OBJECTS - 1, 4), **dict.fromkeys(DIRECTION, comb(N_OBJECTS, 3))}
        draws = {REL: 23, **{f"object_rel_direction_{lv}": k for lv, k in LEVELS.items()}}
        for task in DRAWN:
            share = Fraction(draws[task] * kept[task]["count"], units[task])
            expected[task] = expected.get(task, Fraction(0)) + share
    return expected


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fixed_total_draw_hits_the_rounded_expectation_on_a_small_scene_set(seed):
    expected = expected_totals(SCENES)
    manifest = generate_vsibench(SCENES, DRAWN, GenerationSettings(seed=seed, **UNCAPPED)).manifest
    for task in DRAWN:
        entry = manifest["tasks"][task]
        assert entry["count"] == round(expected[task]), task
        assert entry["expected_count"] == pytest.approx(float(expected[task]), abs=0.005)
    independent = GenerationSettings(seed=seed, draw_allocation="independent", **UNCAPPED)
    assert "expected_count" not in generate_vsibench(SCENES, [REL], independent).manifest["tasks"][REL]


def test_each_scene_still_draws_its_own_number_of_units():
    bench = generate_vsibench(SCENES, DRAWN, GenerationSettings(**UNCAPPED))
    removed = bench.manifest["tasks"][REL]["removed"]
    judged = (
        bench.manifest["tasks"][REL]["count"]
        + removed["ambiguous_gap"]
        + removed.get("too_close_to_reference", 0)
    )
    assert judged == 23 * len(SCENES) and removed["not_drawn"] == (280 - 23) * len(SCENES)
    for task, k in zip(DIRECTION, LEVELS.values(), strict=True):
        not_drawn = bench.manifest["tasks"][task]["removed"]["not_drawn"]
        assert not_drawn == (56 - k) * 3 * len(SCENES)  # k triples per scene, 3 role orders each
        triples: dict[str, set] = {}
        for item in bench.items:
            if item.task == task:
                triples.setdefault(item.scene_id, set()).add(frozenset(item.metadata["objects"]))
        assert max(len(t) for t in triples.values()) <= k


def keys(bench):
    """The questions asked (answer letters depend on the assembly order, the answer texts do not)."""
    return sorted(item_key(i, any_order=True) for i in bench.items)


def test_fixed_total_draw_is_seeded_and_independent_of_scene_order():
    settings = GenerationSettings(seed=3)
    first = generate_vsibench(SCENES, DRAWN, settings)
    again = generate_vsibench(SCENES, DRAWN, settings)
    assert [i.model_dump() for i in first.items] == [i.model_dump() for i in again.items]
    assert keys(generate_vsibench(SCENES[::-1], DRAWN, settings)) == keys(first)
    assert keys(generate_vsibench(SCENES, DRAWN, GenerationSettings(seed=4))) != keys(first)


def test_independent_draw_keeps_every_scene_independent_of_the_others():
    settings = GenerationSettings(seed=1, draw_allocation="independent")
    alone = generate_vsibench(SCENES[:1], DRAWN, settings)
    together = generate_vsibench(SCENES, DRAWN, settings)
    assert keys(alone) == [k for k in keys(together) if k[1] == SCENES[0].scene_id]


def test_fixed_total_draws_by_hand():
    # two scenes of 4 units yielding 1, 1, 0, 0 (2 of 4 drawn: mean 1 each), one of 3 units all drawn (3)
    plans = [
        DrawPlan(np.array([1, 1, 0, 0]), 2),
        DrawPlan(np.array([1, 1, 0, 0]), 2),
        DrawPlan(np.array([1, 2, 0]), 3),
    ]
    assert [p.expected() for p in plans] == [1, 1, 3]
    for seed in range(5):
        drawn = fixed_total_draws(plans, ["a", "b", "c"], "t", seed)
        assert [len(d) for d in drawn] == [2, 2, 3] and drawn[2] == [0, 1, 2]
        assert sum(int(p.yields[d].sum()) for p, d in zip(plans, drawn, strict=True)) == 5
    # capped at 1 a scene: of the C(4, 2) = 6 draws of the first scene, 1 yields 0, 4 yield 1, 1 yields 2
    assert total_ways(plans[0]) == {0: 1, 1: 4, 2: 1} and plans[0].expected(cap=1) == Fraction(5, 6)
    capped = fixed_total_draws(plans, ["a", "b", "c"], "t", 0, cap=1)  # round(5/6 + 5/6 + 1) = 3
    assert sum(min(int(p.yields[d].sum()), 1) for p, d in zip(plans, capped, strict=True)) == 3
    # drawn whole (3 questions, expectation 3) and 0 of 1 unit: nothing left to chance
    whole = [DrawPlan(np.array([2, 1]), 2), DrawPlan(np.array([1]), 0)]
    assert fixed_total_draws(whole, ["a", "b"], "t", 0) == [[0, 1], []]
    # 1 of 2 units yielding 2 or 0: expectation 1 is never hit; the first closest draw is kept, per seed
    odd = [DrawPlan(np.array([2, 0]), 1)]
    assert odd[0].expected() == 1 and len(fixed_total_draws(odd, ["a"], "t", 0)[0]) == 1
    assert {tuple(fixed_total_draws(odd, ["a"], "t", seed)[0]) for seed in range(8)} == {(0,), (1,)}
    assert fixed_total_draws(odd, ["a"], "t", 5) == fixed_total_draws(odd, ["a"], "t", 5)


@pytest.mark.slow
def test_every_seed_lands_within_3_percent_of_every_official_count(shared_data):
    # measured, seeds 0-4 (fixed total): rel. distance 710 (exact expectation 709.95 with the cap of 16),
    # direction 215 / 379 / 363 every seed; official 710, 217 / 378 / 373 (independent draw, seed 0:
    # 681, 197 / 399 / 379). Absolute distance: 859-861 by the default sampled estimate (seeds 0-3; it
    # only over-estimates, so fewer pairs fall below 0.4 m; exact: 853), official 834: within 3.5 %
    from spatialbench.generate.vsi import builtin_tasks
    from spatialbench.generate.vsi.fidelity import OFFICIAL_COUNTS

    scenes = load_meta_info(shared_data / "vsibench" / "meta_info")
    for seed in range(5):
        manifest = generate_vsibench(scenes.values(), builtin_tasks(), GenerationSettings(seed=seed)).manifest
        for task, official in OFFICIAL_COUNTS.items():
            count = manifest["tasks"][task]["count"]
            bound = 0.035 if task == "object_abs_distance" else 0.03
            assert abs(count - official) <= bound * official, (seed, task, count, official)
