"""Room size (Table 3): the scene's floor area from its meta-info, square metres, one decimal."""

from __future__ import annotations

from spatialbench.generate.vsi.base import TaskGenerator, TaskResult
from spatialbench.generate.vsi.candidates import numeric_candidate
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.generate.vsi.templates import render
from spatialbench.records.item import AnswerKind
from spatialbench.scene.model import Scene

TASK = "room_size_estimation"


def generate(scene: Scene, settings: GenerationSettings) -> TaskResult:
    """One question per scene (App. B.1: room size from the alpha shape of the scan)."""
    return TaskResult([numeric_candidate(TASK, scene, render(TASK), scene.room_size, 1)])


GENERATOR = TaskGenerator(TASK, AnswerKind.NUMERICAL, generate)
