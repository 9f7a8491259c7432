"""Scene generation: determinism, the official meta-info schema, room contents and counts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from spatialbench.scene import load_meta_info
from spatialbench.synth import SceneConfig, generate_scene
from spatialbench.synth.rooms import ROOM_TYPES

ROOM_TYPES_EXPECTED = ["bathroom", "bedroom", "dining room", "kitchen", "living room", "office"]


def test_six_room_types_are_registered() -> None:
    assert ROOM_TYPES.names() == ROOM_TYPES_EXPECTED


def test_same_seed_same_scene_and_other_seed_differs() -> None:
    config = SceneConfig(room_type="office", density="dense", plan="l_shape")
    first = json.dumps(generate_scene(config, 11).meta_info("synthetic/x.mp4"))
    again = json.dumps(generate_scene(config, 11).meta_info("synthetic/x.mp4"))
    other = json.dumps(generate_scene(config, 12).meta_info("synthetic/x.mp4"))
    assert first == again
    assert first != other


def test_meta_info_loads_with_the_official_schema_reader(tmp_path) -> None:
    scene = generate_scene(SceneConfig(room_type="bedroom", plan="two_rooms", second_room_type="office"), 3)
    path = tmp_path / "synthetic_meta_info.json"
    path.write_text(json.dumps({scene.scene_id: scene.meta_info(f"synthetic/{scene.scene_id}.mp4")}))
    loaded = load_meta_info(path)[scene.scene_id]  # checks min/max against centroid/axes (1e-4 m)
    assert loaded.dataset == "synthetic"
    assert loaded.room_size == pytest.approx(scene.plan.area)
    assert sum(loaded.counts.values()) == len(scene.objects)
    bed = loaded.unique_box("bed")
    obj = next(o for o in scene.objects if o.category == "bed")
    assert np.allclose(bed.center, obj.box().center, atol=1e-5)
    assert np.allclose(bed.rotation, obj.box().rotation, atol=1e-5)


def test_instance_table_indexes_the_meta_info_lists() -> None:
    scene = generate_scene(SceneConfig(room_type="dining room", density="dense"), 5)
    meta = scene.meta_info("v.mp4")
    for row in scene.instances():
        obj = scene.objects[row["instance_id"] - 1]
        box = meta["object_bbox"][row["category"]][row["index"]]
        assert np.allclose(box["centroid"], obj.box().center, atol=1e-5)


@pytest.mark.parametrize("room_type", ROOM_TYPES_EXPECTED)
def test_every_room_has_a_door_windows_and_its_anchor(room_type: str) -> None:
    anchors = {
        "bedroom": "bed",
        "living room": "sofa",
        "kitchen": "refrigerator",
        "bathroom": "toilet",
        "dining room": "table",
        "office": "monitor",
    }
    for seed in range(3):
        counts = generate_scene(SceneConfig(room_type=room_type), seed).meta_info("v.mp4")["object_counts"]
        assert counts["door"] == 1 and counts["window"] >= 1
        assert counts.get(anchors[room_type], 0) >= 1, (seed, counts)


def test_dense_scenes_have_counting_material() -> None:
    # Counting questions need categories with several instances (VSI-Bench object counting, 2-10 typical).
    multi = []
    for index, room_type in enumerate(ROOM_TYPES_EXPECTED):
        counts = generate_scene(SceneConfig(room_type=room_type, density="dense"), index).meta_info("v")[
            "object_counts"
        ]
        multi += [c for c, n in counts.items() if n >= 2 and c not in ("window", "ceiling light")]
    assert {"chair", "pillow"} <= set(multi)
    assert len(multi) >= 8


def test_dense_has_more_objects_than_sparse_on_average() -> None:
    def mean_count(density: str) -> float:
        return float(
            np.mean(
                [
                    len(generate_scene(SceneConfig(room_type=r, density=density), 1).objects)
                    for r in ROOM_TYPES_EXPECTED
                ]
            )
        )

    assert mean_count("dense") > mean_count("sparse") + 2
