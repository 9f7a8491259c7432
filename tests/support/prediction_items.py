"""Three numerical items for prediction-reading tests: ids 1 and 2 in scene s1, id 3 in scene s2."""

from spatialbench.records.item import AnswerKind, Item


def item(id_: str, scene: str = "s1", question: str = "How many chairs?") -> Item:
    """A counting item (ground truth 2) with the given id, scene and question."""
    return Item(id=id_, benchmark="vsibench", task="object_counting", question=question, ground_truth="2",
                answer_kind=AnswerKind.NUMERICAL, scene_id=scene, dataset="scannet")


ITEMS = [item("1"), item("2", question="How many beds?"), item("3", scene="s2")]
