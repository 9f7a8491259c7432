"""Room size (Table 3): the scene's floor area from its meta-info, square metres, one decimal."""

from __future__ import annotations

from spatialbench.benchmarks.item import AnswerKind
from spatialbench.generate.vsi.base import Candidate, TaskResult, task_generator
from spatialbench.generate.vsi.options import format_number
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.generate.vsi.templates import render
from spatialbench.scene.model import Scene

TASK = "room_size_estimation"


@task_generator(TASK, AnswerKind.NUMERICAL)
def generate(scene: Scene, settings: GenerationSettings) -> TaskResult:
    """One question per scene (App. B.1: room size from the alpha shape of the scan)."""
    return TaskResult(
        [
            Candidate(
                task=TASK,
                scene_id=scene.scene_id,
                dataset=scene.dataset,
                question=render(TASK),
                answer=format_number(scene.room_size, 1),
                value=scene.room_size,
                decimals=1,
            )
        ]
    )
