"""Object counting (Table 3): "How many {category}(s) are in this room?" (App. B.1: skip counts of one)."""

from __future__ import annotations

from spatialbench.generate.vsi.base import TaskGenerator, TaskResult
from spatialbench.generate.vsi.candidates import numeric_candidate
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.generate.vsi.templates import render
from spatialbench.records.item import AnswerKind
from spatialbench.scene.categories import question_name
from spatialbench.scene.model import Scene

TASK = "object_counting"


def generate(scene: Scene, settings: GenerationSettings) -> TaskResult:
    """One question per category counted at least twice; ground truth is the verified count."""
    result = TaskResult()
    for category, count in scene.counts.items():
        if count < 2:
            result.removed["single_instance"] += 1
            continue
        name = question_name(category)
        metadata = {"category": category, "slots": {"object": name}}
        result.candidates.append(
            numeric_candidate(TASK, scene, render(TASK, category=name), count, 0, metadata)
        )
    return result


GENERATOR = TaskGenerator(TASK, AnswerKind.NUMERICAL, generate)
