"""Ground-truth cognitive maps (scene/cogmap.py) checked against cells computed by hand, and locality."""

import numpy as np
import pytest

from spatialbench.scene import Scene, load_meta_info, write_meta_info
from spatialbench.scene.cogmap import GridSpec, ground_truth_map
from spatialbench.scoring.cogmap_locality import LOCALITY_EDGES, PairDistance, locality, map_pairs
from support.analysis_runs import scene_of
from support.shared_data import require_file, shared_data_dir


def _official(dataset: str, scene_id: str) -> Scene:
    path = require_file(shared_data_dir() / "vsibench" / "meta_info" / f"{dataset}_meta_info_val.json")
    return load_meta_info(path)[scene_id]


def _cells(gt: dict) -> dict:
    return {c: [tuple(int(v) for v in p) for p in pts] for c, pts in gt.items()}


# scene0316_00 x/y bounds of its 4 boxes (min/max from the file, 4 decimals): x -2.2695 .. 1.2907 (3.5602 m),
# y -2.137 .. 1.7382 (3.8752 m). Isotropic: side 3.8752 m, cell 0.38752 m; x centred: low x =
# (-2.2695 + 1.2907) / 2 - 1.9376 = -2.4270. Centres -> cells (floor):
#   chair (-1.4039, -0.6719): (1.0231 / .38752, 1.4651 / .38752) = (2.64, 3.78) -> (2, 3)
#   chair ( 1.0133,  1.3548): (3.4403, 3.4918) / .38752 = (8.88, 9.01) -> (8, 9)
#   door  (-2.0629,  0.4634): (0.3641, 2.6004) / .38752 = (0.94, 6.71) -> (0, 6)
#   table (-1.3086, -1.6734): (1.1184, 0.4636) / .38752 = (2.89, 1.20) -> (2, 1)
SCENE0316 = {"chair": [(2, 3), (8, 9)], "door": [(0, 6)], "table": [(2, 1)]}


def test_scannet_scene_map_by_hand():
    assert _cells(ground_truth_map(_official("scannet", "scene0316_00"))) == SCENE0316


def test_scannetpp_scene_map_by_hand():
    # f2dc06b1d2: x 0.0545 .. 3.5879 (3.5334 m, the longer side), y 0.0384 .. 1.9051; cell 0.35334 m;
    # y centred: low y = 0.97175 - 1.7667 = -0.79495.
    #   chair (0.4234, 0.969):  (0.3689, 1.76395) / .35334 = (1.04, 4.99) -> (1, 4)
    #   door  (1.4377, 0.1016): (1.3832, 0.89655) / .35334 = (3.91, 2.54) -> (3, 2)
    #   table (3.0669, 1.0565): (3.0124, 1.85145) / .35334 = (8.53, 5.24) -> (8, 5)
    gt = ground_truth_map(_official("scannetpp", "f2dc06b1d2"))
    assert _cells(gt) == {"chair": [(1, 4)], "door": [(3, 2)], "table": [(8, 5)]}


def test_per_axis_and_one_based_options():
    scene = _official("scannet", "scene0316_00")
    # per axis: x spans its own 3.5602 m from -2.2695; cell 0.35602 m; y unchanged (it was the longer side).
    #   chair (-1.4039 + 2.2695) / .35602 = 2.43 -> 2; chair (1.0133 + 2.2695) / .35602 = 9.22 -> 9;
    #   door 0.2066 / .35602 = 0.58 -> 0; table 0.9609 / .35602 = 2.70 -> 2
    gt = ground_truth_map(scene, GridSpec(aspect="per-axis", origin=1))
    assert _cells(gt) == {"chair": [(3, 4), (10, 10)], "door": [(1, 7)], "table": [(3, 2)]}


def test_continuous_coordinates_and_20_grid():
    scene = _official("scannet", "scene0316_00")
    gt = ground_truth_map(scene, GridSpec(grid_size=20, quantize=False), categories=["door"])
    # door (0.3641, 2.6004) / .38752 * 2 - 0.5 = (1.379, 12.921)
    np.testing.assert_allclose(gt["door"], [[1.379, 12.921]], atol=2e-3)


def _synthetic_scene() -> Scene:
    boxes = {
        "bed": [((0.5, 0.5, 0.3), (1.0, 1.0, 0.6))],
        "lamp": [((3.5, 1.5, 1.0), (1.0, 1.0, 2.0))],
        "chair": [((2.1, 0.9, 0.4), (0.5, 0.5, 0.8)), ((0.5, 1.75, 0.4), (0.5, 0.5, 0.8))],
    }
    return scene_of("synth_0_0", "synthetic", boxes)


def test_synthetic_scene_map_by_hand(tmp_path):
    path = tmp_path / "synthetic_meta_info.json"
    write_meta_info([_synthetic_scene()], path)  # through the official schema and back
    scene = load_meta_info(path)["synth_0_0"]
    # boxes span x 0..4, y 0..2 (chair 2 reaches 2.0): side 4 m, cell 0.4 m, y centred: low y = 1 - 2 = -1.
    #   bed (0.5, 0.5) -> (1.25, 3.75) -> (1, 3); lamp (3.5, 1.5) -> (8.75, 6.25) -> (8, 6)
    #   chair (2.1, 0.9) -> (5.25, 4.75) -> (5, 4); chair (0.5, 1.75) -> (1.25, 6.875) -> (1, 6)
    assert _cells(ground_truth_map(scene)) == {"bed": [(1, 3)], "lamp": [(8, 6)], "chair": [(5, 4), (1, 6)]}
    # room extent: centred on room_center (2, 1); half-widths 2 and 1: the same rectangle here
    assert _cells(ground_truth_map(scene, GridSpec(extent="room"))) == _cells(ground_truth_map(scene))
    # centres extent: x 0.5..3.5, y 0.5..1.75: side 3 m, cell 0.3, low y = 1.125 - 1.5 = -0.375
    #   bed (0, 0.875/.3 = 2.92) -> (0, 2); lamp (10 -> last cell 9, 6.25) -> (9, 6)
    centres = _cells(ground_truth_map(scene, GridSpec(extent="centers"), categories=["bed", "lamp"]))
    assert centres == {"bed": [(0, 2)], "lamp": [(9, 6)]}


def test_unknown_category_is_named():
    with pytest.raises(KeyError, match="'sofa' not in scene 'synth_0_0'"):
        ground_truth_map(_synthetic_scene(), categories=["sofa"])


def test_bad_grid_options_are_refused():
    with pytest.raises(ValueError, match="origin"):
        GridSpec(origin=2)
    with pytest.raises(ValueError, match="extent"):
        GridSpec(extent="house")  # type: ignore[arg-type]


def test_the_papers_bins():
    assert LOCALITY_EDGES == pytest.approx([1.0, 2.125, 3.25, 4.375, 5.5, 6.625, 7.75, 8.875, 10.0])


def test_locality_of_a_hand_made_map():
    # ground truth SCENE0316: chair-door min(sqrt 13, sqrt 73) = 3.606; chair-table min(2, ...) = 2;
    # door-table sqrt 29 = 5.385. Prediction: chair (3,3), door (0,5), table (2,2), lamp ignored:
    # chair-door sqrt 13 = 3.606 (diff 0: right); chair-table sqrt 2 = 1.414 (0.586: right);
    # door-table sqrt 13 = 3.606 (1.779: wrong). Bins: 2 -> [1, 2.125]; 3.606 -> (3.25, 4.375];
    # 5.385 -> (4.375, 5.5].
    predicted = {"chair": [(3, 3)], "door": [(0, 5)], "table": [(2, 2)], "lamp": [(9, 9)]}
    pairs = map_pairs(predicted, SCENE0316)
    assert [(p.first, p.second) for p in pairs] == [("chair", "door"), ("chair", "table"), ("door", "table")]
    assert [round(p.truth, 3) for p in pairs] == [3.606, 2.0, 5.385]
    result = locality(pairs)
    assert result.total == (1, 0, 1, 1, 0, 0, 0, 0)
    assert result.correct == (1, 0, 1, 0, 0, 0, 0, 0)
    assert result.accuracy == (1.0, None, 1.0, 0.0, None, None, None, None)
    assert (result.below, result.above, result.missing) == (0, 0, 0)


def test_missing_category_pairs_count_wrong_or_are_left_out():
    pairs = map_pairs({"chair": [(3, 3)], "door": [(0, 5)]}, SCENE0316)  # no table
    assert locality(pairs).total == (1, 0, 1, 1, 0, 0, 0, 0)
    assert locality(pairs).correct == (0, 0, 1, 0, 0, 0, 0, 0)
    assert locality(pairs).missing == 2
    assert locality(pairs, count_missing=False).total == (0, 0, 1, 0, 0, 0, 0, 0)


def test_bin_boundaries_and_out_of_range():
    pairs = [PairDistance("a", "b", d, d) for d in (0.0, 1.0, 2.125, 2.2, 10.0, 12.7)]
    result = locality(pairs)
    assert result.total == (2, 1, 0, 0, 0, 0, 0, 1)
    assert (result.below, result.above) == (1, 1)


def test_scene_names_use_the_question_names():
    from spatialbench.scene.categories import question_name
    from spatialbench.scene.cogmap import scene_names

    scene = _synthetic_scene()
    assert scene_names(scene) == tuple(question_name(c) for c in ("bed", "lamp", "chair"))


def test_generated_synthetic_room_matches_an_independent_computation(tmp_path):
    """A procedural bedroom through its meta-info file: cells recomputed from the file's own fields."""
    import json

    from spatialbench.synth.generator import SceneConfig, generate_scene

    synth = generate_scene(SceneConfig(room_type="bedroom"), seed=3, scene_id="synth_3")
    path = tmp_path / "synthetic_meta_info.json"
    path.write_text(json.dumps({"synth_3": synth.meta_info("synthetic/synth_3.mp4")}))
    entry = json.loads(path.read_text())["synth_3"]
    boxes = [b for v in entry["object_bbox"].values() for b in v]
    low = np.min([b["min"][:2] for b in boxes], axis=0)
    high = np.max([b["max"][:2] for b in boxes], axis=0)
    side = float(np.max(high - low))
    origin = (low + high) / 2 - side / 2
    expected = {
        c: [
            tuple(int(v) for v in np.clip(np.floor((np.array(b["centroid"][:2]) - origin) / side * 10), 0, 9))
            for b in v
        ]
        for c, v in entry["object_bbox"].items()
    }
    assert len(expected) >= 3
    assert _cells(ground_truth_map(load_meta_info(path)["synth_3"])) == expected


def test_every_official_scene_has_a_map_and_a_perfect_self_locality():
    from spatialbench.scene.cogmap import scene_names

    folder = require_file(shared_data_dir() / "vsibench" / "meta_info")
    scenes = load_meta_info(folder)
    assert len(scenes) == 288
    pairs = [p for s in scenes.values() for p in map_pairs(*[ground_truth_map(s, None, scene_names(s))] * 2)]
    result = locality(pairs)
    assert result.correct == result.total and sum(result.total) > 4000
