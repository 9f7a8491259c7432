"""Relative direction (Table 3): one task in the paper, three registered levels sharing one geometry.

The levels differ only in their answers, labelling rule and angle boundaries (``generate.vsi.direction``).
"""

from __future__ import annotations

from collections.abc import Sequence

from spatialbench.generate.vsi.allocation import DrawPlan
from spatialbench.generate.vsi.base import Drawing, TaskGenerator, TaskResult
from spatialbench.generate.vsi.direction import (
    Labeller,
    direction_candidates,
    direction_plan,
    easy_label,
    hard_label,
    medium_label,
)
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.records.item import AnswerKind
from spatialbench.scene.model import Scene


def level_generator(level: str, choices: tuple[str, ...], label: Labeller) -> TaskGenerator:
    """Return the generator of task ``object_rel_direction_<level>`` (answers ``choices``, by ``label``)."""
    task = f"object_rel_direction_{level}"

    def judge(scene: Scene, settings: GenerationSettings, drawn: Sequence[int] | None = None) -> TaskResult:
        return direction_candidates(scene, task, level, choices, label, settings, drawn)

    def plan(scene: Scene, settings: GenerationSettings) -> DrawPlan | None:
        return direction_plan(scene, level, settings)

    return TaskGenerator(task, AnswerKind.MULTIPLE_CHOICE, judge, Drawing(plan, judge))


EASY = level_generator("easy", ("left", "right"), easy_label)
MEDIUM = level_generator("medium", ("left", "right", "back"), medium_label)
HARD = level_generator("hard", ("front-left", "front-right", "back-left", "back-right"), hard_label)
