"""Object size (Table 3): longest side of a unique object's box, in centimetres (App. B.1)."""

from __future__ import annotations

from spatialbench.benchmarks.item import AnswerKind
from spatialbench.generate.vsi.base import Candidate, TaskResult, task_generator
from spatialbench.generate.vsi.options import format_number
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.generate.vsi.templates import render
from spatialbench.scene.categories import question_name
from spatialbench.scene.model import Scene

TASK = "object_size_estimation"


@task_generator(TASK, AnswerKind.NUMERICAL)
def generate(scene: Scene, settings: GenerationSettings) -> TaskResult:
    """One question per unique category; ground truth = round(100 · longest side) as an integer."""
    result = TaskResult()
    unique = set(scene.unique_categories())
    for category in scene.objects:
        if category not in unique:
            result.removed["not_unique"] += 1
            continue
        size_cm = scene.unique_box(category).longest_side * 100.0
        result.candidates.append(
            Candidate(
                task=TASK,
                scene_id=scene.scene_id,
                dataset=scene.dataset,
                question=render(TASK, category=question_name(category)),
                answer=format_number(size_cm, 0),
                value=size_cm,
                decimals=0,
                metadata={"category": category},
            )
        )
    return result
