from spatialbench.scene import make_box
from spatialbench.scene.categories import question_name, scene_category, vocabulary
from spatialbench.scene.model import ObjectInstance, Scene


def test_vocabulary_per_dataset():
    assert "tv" in vocabulary("arkitscenes") and "trash bin" in vocabulary("scannet")
    assert "coat hanger" in vocabulary("scannetpp")
    assert set(vocabulary()) >= set(vocabulary("scannet"))


def test_remapping_both_ways():
    assert question_name("coat hanger") == "coat rack" and question_name("sofa") == "sofa"
    box = make_box([0, 0, 0], [1, 1, 1])
    scene = Scene(
        "s",
        "scannetpp",
        10.0,
        box.center,
        {"coat hanger": (ObjectInstance("coat hanger", 0, box),)},
        {"coat hanger": 1},
    )
    assert scene_category(scene, "coat rack") == "coat hanger"
    assert scene_category(scene, "coat hanger") == "coat hanger"
    assert scene_category(scene, "sofa") is None
