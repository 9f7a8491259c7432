"""Placement constraints hold in generated scenes (ReMindView-Bench App. B.1 style rules)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from shapely.geometry import Point

from spatialbench.synth import SceneConfig, SynthObject, SynthScene, generate_scene
from spatialbench.synth.placement import GAP


def scenes() -> list[SynthScene]:
    configs = [
        ("bedroom", "dense", "rectangle"),
        ("living room", "dense", "l_shape"),
        ("kitchen", "dense", "rectangle"),
        ("office", "sparse", "two_rooms"),
        ("dining room", "dense", "rectangle"),
        ("bathroom", "dense", "rectangle"),
    ]
    return [
        generate_scene(SceneConfig(room_type=r, density=d, plan=p), seed)
        for seed, (r, d, p) in enumerate(configs)
    ]


@pytest.fixture(scope="module")
def generated() -> list[SynthScene]:
    return scenes()


def overlaps(a: SynthObject, b: SynthObject) -> bool:
    (a0, a1), (b0, b1) = a.z_range(), b.z_range()
    return a0 < b1 - 1e-6 and b0 < a1 - 1e-6 and a.footprint().intersection(b.footprint()).area > 1e-6


def test_no_two_objects_intersect(generated: list[SynthScene]) -> None:
    for scene in generated:
        for a, b in itertools.combinations(scene.objects, 2):
            if a.support == b.instance_id or b.support == a.instance_id:
                continue  # a pillow rests on the mattress inside the bed's box
            assert not overlaps(a, b), (scene.scene_id, a.category, b.category)


def test_objects_stay_inside_the_floor(generated: list[SynthScene]) -> None:
    for scene in generated:
        floor = scene.plan.footprint.buffer(1e-6)
        for obj in scene.objects:
            if obj.category not in ("door", "window"):
                assert floor.contains(obj.footprint()), (scene.scene_id, obj.category)


def back_gap(obj: SynthObject, scene: SynthScene) -> float:
    """Distance from the middle of the object's back face to the nearest wall face."""
    low, _ = obj.asset.bounds()
    back = obj.pose() @ np.array([0.0, low[1], 0.0, 1.0])
    return float(scene.plan.footprint.exterior.distance(Point(*back[:2])))


def test_beds_sofas_shelves_stand_with_their_back_to_a_wall(generated: list[SynthScene]) -> None:
    checked = 0
    for scene in generated:
        for obj in scene.objects:
            if obj.category in ("bed", "sofa", "bookshelf", "closet", "refrigerator", "toilet"):
                assert back_gap(obj, scene) <= GAP + 1e-3, (scene.scene_id, obj.category)
                checked += 1
    assert checked >= 6


def test_nightstands_stand_beside_the_bed(generated: list[SynthScene]) -> None:
    bedroom = generated[0]
    bed = next(o for o in bedroom.objects if o.category == "bed")
    stands = [o for o in bedroom.objects if o.category == "nightstand"]
    assert stands
    for stand in stands:
        local = np.linalg.inv(bed.pose()) @ np.append(stand.position, 1.0)
        half_width = bed.asset.extent()[0] / 2
        assert (
            abs(local[0]) > half_width and abs(local[0]) < half_width + 0.5
        )  # just left or right of the bed
        assert local[1] < 0  # towards the head end
        assert stand.yaw == pytest.approx(bed.yaw)


def test_chairs_around_a_table_face_it(generated: list[SynthScene]) -> None:
    dining = generated[4]
    table = max((o for o in dining.objects if o.category == "table"), key=lambda o: o.footprint().area)
    chairs = [o for o in dining.objects if o.category == "chair"]
    assert len(chairs) >= 4
    for chair in chairs:
        to_table = table.position[:2] - chair.position[:2]
        front = chair.pose()[:2, 1]
        assert np.dot(front, to_table / np.linalg.norm(to_table)) > 0.7


def test_tv_faces_the_sofa(generated: list[SynthScene]) -> None:
    living = generated[1]
    sofa = next(o for o in living.objects if o.category == "sofa")
    tv = next(o for o in living.objects if o.category == "tv")
    to_sofa = sofa.position[:2] - tv.position[:2]
    assert np.dot(tv.pose()[:2, 1], to_sofa / np.linalg.norm(to_sofa)) > 0.9
    assert np.dot(sofa.pose()[:2, 1], -to_sofa / np.linalg.norm(to_sofa)) > 0.9


def test_small_objects_rest_on_their_support(generated: list[SynthScene]) -> None:
    supported = 0
    for scene in generated:
        by_id = {o.instance_id: o for o in scene.objects}
        for obj in scene.objects:
            if obj.support is None:
                continue
            support = by_id[obj.support]
            bottom = obj.z_range()[0]
            tops = [support.position[2] + p.mesh.bounds[1][2] for p in support.asset.parts]
            assert min(abs(bottom - t) for t in tops) < 5e-3, (scene.scene_id, obj.category)
            assert support.footprint().buffer(1e-6).contains(Point(*obj.position[:2]))
            supported += 1
    assert supported >= 10
