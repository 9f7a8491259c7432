import json

import numpy as np
import pytest

from spatialbench.scene import (
    MetaInfoError,
    load_meta_info,
    make_box,
    rotation_z,
    scene_to_meta,
    write_meta_info,
)
from spatialbench.scene.metainfo import box_from_meta, box_to_meta

META = "vsibench/meta_info"

# ARKitScenes 41069025, the stove: axes are the ROWS of normalizedAxes (hand-checked: max - min =
# |A|^T @ axesLengths = (0.8478, 0.8411, 0.0371)).
STOVE = {
    "centroid": [-0.7345465904620994, -0.9345679887500986, -0.03302363240595252],
    "axesLengths": [0.6006312760435208, 0.6225802599699855, 0.03710324799789916],
    "normalizedAxes": [
        0.5373512942365626,
        0.8433585160430238,
        0,
        -0.8433585160430238,
        0.5373512942365626,
        0,
        0,
        0,
        1,
    ],
    "min": [-1.1584507693155548, -1.355113893807148, -0.0515752564049021],
    "max": [-0.31064241160864386, -0.5140220836930491, -0.01447200840700294],
}


def test_axis_convention_rows_are_box_axes():
    box = box_from_meta(STOVE)
    np.testing.assert_allclose(box.rotation[:, 0], [0.5373512942365626, 0.8433585160430238, 0])
    lo, hi = box.aabb()
    np.testing.assert_allclose(lo, STOVE["min"], atol=1e-12)
    np.testing.assert_allclose(hi, STOVE["max"], atol=1e-12)


# ScanNet scene0251_00, first chair: a tilted box, for which rows and columns give different bounds.
CHAIR = {
    "centroid": [1.6660784105904327, -0.11247369636632484, -0.3127635643278425],
    "axesLengths": [0.6157292864842954, 0.884636045099437, 0.5346067302374184],
    "normalizedAxes": [
        -0.4825706269772676,
        0.8758498999721477,
        -0.0035415671030991133,
        0.15590860435578247,
        0.08987916754165705,
        0.9836738495710105,
        0.8618689558550063,
        0.4741399455443484,
        -0.1799255817625815,
    ],
    "min": [1.2181703189084092, -0.5486112919915673, -0.7970452730727544],
    "max": [2.113986502272456, 0.3236638992589176, 0.17151814441706933],
}


def test_tilted_official_box_rows_convention():
    lo, hi = box_from_meta(CHAIR).aabb()
    np.testing.assert_allclose(lo, CHAIR["min"], atol=1e-12)
    np.testing.assert_allclose(hi, CHAIR["max"], atol=1e-12)


def test_columns_convention_is_rejected_by_min_max_check():
    transposed = dict(
        CHAIR, normalizedAxes=np.array(CHAIR["normalizedAxes"]).reshape(3, 3).T.ravel().tolist()
    )
    with pytest.raises(MetaInfoError, match="min/max do not match"):
        box_from_meta(transposed, "chair")


def test_every_official_box_matches_its_min_max(shared_data):
    scenes = load_meta_info(shared_data / META)
    assert len(scenes) == 288
    assert sum(s.dataset == "arkitscenes" for s in scenes.values()) == 150
    assert sum(s.dataset == "scannetpp" for s in scenes.values()) == 50


def test_duplicate_boxes_dropped_and_counts_of_record_kept(shared_data):
    scene = load_meta_info(shared_data / META / "scannet_meta_info_val.json")["scene0207_02"]
    assert len(scene.instances("printer")) == 1  # the file lists the same printer box twice
    assert scene.count("printer") == 1 and "printer" in scene.unique_categories()
    assert scene.count("window") == 2


def test_round_trip(tmp_path):
    box = make_box([1.0, 2.0, 0.5], [0.4, 1.2, 0.8], rotation_z(0.3))
    entry = {
        "dataset": "synthetic",
        "room_size": 12.5,
        "room_center": [0, 0, 0],
        "object_counts": {"sofa": 1},
        "object_bbox": {"sofa": [box_to_meta(box)]},
    }
    path = tmp_path / "meta.json"
    path.write_text(json.dumps({"room1": entry}))
    scenes = load_meta_info(path)
    write_meta_info(scenes.values(), tmp_path / "again.json")
    again = load_meta_info(tmp_path / "again.json")["room1"]
    assert scene_to_meta(again) == scene_to_meta(scenes["room1"])
    np.testing.assert_allclose(again.unique_box("sofa").rotation, rotation_z(0.3))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda e: e.pop("room_size"), "scene 'r': missing field 'room_size'"),
        (
            lambda e: e["object_bbox"]["sofa"][0].pop("axesLengths"),
            r"object_bbox\['sofa'\]\[0\]: missing field 'axesLengths'",
        ),
        (
            lambda e: e["object_bbox"]["sofa"][0].update(centroid=[1, 2]),
            r"centroid: expected 3 finite numbers",
        ),
        (
            lambda e: e["object_counts"].update(sofa=0),
            r"object_counts\['sofa'\]: expected a positive integer",
        ),
        (lambda e: e.update(room_size=-3), r"room_size: expected a positive number"),
    ],
)
def test_schema_errors_name_file_scene_and_field(tmp_path, mutate, message):
    entry = {
        "dataset": "synthetic",
        "room_size": 10.0,
        "object_counts": {"sofa": 1},
        "object_bbox": {"sofa": [box_to_meta(make_box([0, 0, 0], [1, 1, 1]))]},
    }
    mutate(entry)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"r": entry}))
    with pytest.raises(MetaInfoError, match=message) as err:
        load_meta_info(path)
    assert str(path) in str(err.value)


def _one_scene_file(tmp_path, entry):
    path = tmp_path / "meta.json"
    path.write_text(json.dumps({"r": entry}))
    return path


def _entry(**update):
    box = box_to_meta(make_box([0, 0, 0], [1, 1, 1]))
    entry = {
        "dataset": "synthetic",
        "room_size": 10.0,
        "object_counts": {"sofa": 1},
        "object_bbox": {"sofa": [box]},
    }
    return {**entry, **update}


@pytest.mark.parametrize("dataset", [None, "", 3])
def test_scene_without_dataset_is_an_error(tmp_path, dataset):
    # it used to give questions with "dataset": "" (and media paths "/<scene>.mp4") without a word
    entry = _entry() if dataset is None else _entry(dataset=dataset)
    if dataset is None:
        del entry["dataset"]
    path = _one_scene_file(tmp_path, entry)
    with pytest.raises(MetaInfoError, match=r"scene 'r'.*dataset") as err:
        load_meta_info(path)
    assert str(path) in str(err.value)


@pytest.mark.parametrize("name", ['sofa\nWhich is "closest"?', "sofa\t", '"sofa"', "{choice_a}", "", " sofa"])
def test_category_names_that_would_break_question_text_are_errors(tmp_path, name):
    box = box_to_meta(make_box([0, 0, 0], [1, 1, 1]))
    path = _one_scene_file(tmp_path, _entry(object_counts={name: 1}, object_bbox={name: [box]}))
    with pytest.raises(MetaInfoError, match=r"scene 'r'.*category") as err:
        load_meta_info(path)
    assert repr(name) in str(err.value) and str(path) in str(err.value)
