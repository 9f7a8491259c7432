"""Object size (Table 3): longest side of a unique object's box, in centimetres (App. B.1)."""

from __future__ import annotations

from spatialbench.generate.vsi.base import TaskGenerator, TaskResult
from spatialbench.generate.vsi.candidates import numeric_candidate
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.generate.vsi.templates import render
from spatialbench.records.item import AnswerKind
from spatialbench.scene.categories import question_name
from spatialbench.scene.model import Scene

TASK = "object_size_estimation"


def generate(scene: Scene, settings: GenerationSettings) -> TaskResult:
    """One question per unique category; ground truth = round(100 · longest side) as an integer."""
    result = TaskResult()
    unique = set(scene.unique_categories())
    for category in scene.objects:
        if category not in unique:
            result.removed["not_unique"] += 1
            continue
        size_cm = scene.unique_box(category).longest_side * 100.0
        name = question_name(category)
        metadata = {"category": category, "slots": {"object": name}}
        result.candidates.append(
            numeric_candidate(TASK, scene, render(TASK, category=name), size_cm, 0, metadata)
        )
    return result


GENERATOR = TaskGenerator(TASK, AnswerKind.NUMERICAL, generate)
