"""The free-space map: rasterised floor and obstacles, erosion by a person's radius, shortest paths."""

from __future__ import annotations

import numpy as np
import pytest

from spatialbench.synth import FreeSpaceMap, SceneConfig, free_space_map, generate_scene


def corridor_map() -> FreeSpaceMap:
    """A 2 m × 1 m floor at 0.1 m cells with a wall stub blocking x in [0.9, 1.1) for y < 0.7."""
    free = np.ones((10, 20), dtype=bool)
    free[:7, 9:11] = False
    walkable = free.copy()
    return FreeSpaceMap(free, walkable, np.array([0.0, 0.0]), 0.1, 0.0)


def test_cells_and_world_points_round_trip() -> None:
    space = corridor_map()
    assert space.to_cell(np.array([0.05, 0.95])) == (9, 0)
    assert np.allclose(space.to_world(np.array([[9, 0]])), [[0.05, 0.95]])
    assert not space.is_walkable(np.array([1.0, 0.2]))
    assert space.segment_walkable(np.array([0.2, 0.85]), np.array([1.8, 0.85]))
    assert not space.segment_walkable(np.array([0.2, 0.2]), np.array([1.8, 0.2]))


def test_shortest_path_goes_round_the_stub() -> None:
    space = corridor_map()
    path = space.shortest_path(np.array([0.15, 0.15]), np.array([1.85, 0.15]))
    assert path is not None
    assert path[:, 1].max() >= 0.75  # had to pass above the stub (rows 7-9)
    assert all(space.is_walkable(p) for p in path)
    length = np.linalg.norm(np.diff(path, axis=0), axis=1).sum()
    # Hand computation on the 8-connected grid: 17 columns to cross, 6 rows up and 6 down: 6 + 6 diagonal
    # steps and 5 straight ones -> 12 * 0.1 * sqrt(2) + 5 * 0.1.
    assert length == pytest.approx(12 * 0.1 * np.sqrt(2) + 0.5, abs=1e-9)


def test_unreachable_goal_gives_none() -> None:
    free = np.ones((5, 10), dtype=bool)
    free[:, 5] = False
    space = FreeSpaceMap(free, free.copy(), np.zeros(2), 0.1, 0.0)
    assert space.shortest_path(np.array([0.05, 0.05]), np.array([0.95, 0.05])) is None


def test_scene_map_blocks_furniture_and_keeps_a_person_radius() -> None:
    scene = generate_scene(SceneConfig(room_type="bedroom"), 2)
    space = free_space_map(scene, resolution=0.05, clearance=0.25)
    bed = next(o for o in scene.objects if o.category == "bed")
    assert not space.free[space.to_cell(bed.position[:2])]
    pillow = next(o for o in scene.objects if o.category == "pillow")
    assert not space.free[space.to_cell(pillow.position[:2])]  # under it stands the bed
    distance = space.distance_to_obstacle()
    assert (distance[space.walkable] > 0.25).all()
    assert space.walkable.sum() > 0.2 * space.free.sum()
    x0, y0, x1, y1 = scene.plan.footprint.bounds
    assert space.free.sum() * 0.05**2 < scene.plan.area
    assert space.free.shape == (int(np.ceil((y1 - y0) / 0.05)), int(np.ceil((x1 - x0) / 0.05)))


def test_save_and_load_round_trip(tmp_path) -> None:
    space = corridor_map()
    space.save(tmp_path / "freespace.npz")
    loaded = FreeSpaceMap.load(tmp_path / "freespace.npz")
    assert np.array_equal(loaded.free, space.free) and loaded.resolution == 0.1
