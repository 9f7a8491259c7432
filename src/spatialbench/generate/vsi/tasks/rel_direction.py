"""Relative direction (Table 3): one task in the paper, three registered levels sharing one geometry.

The levels differ only in their answers, labelling rule and angle boundaries (``generate.vsi.direction``).
"""

from __future__ import annotations

from functools import partial

from spatialbench.generate.vsi.base import TASK_GENERATORS, TaskGenerator
from spatialbench.generate.vsi.direction import direction_candidates, easy_label, hard_label, medium_label
from spatialbench.records.item import AnswerKind

LEVELS = {
    "easy": (("left", "right"), easy_label),
    "medium": (("left", "right", "back"), medium_label),
    "hard": (("front-left", "front-right", "back-left", "back-right"), hard_label),
}

for _level, (_choices, _label) in LEVELS.items():
    _task = f"object_rel_direction_{_level}"
    TASK_GENERATORS.add(
        _task,
        TaskGenerator(
            _task,
            AnswerKind.MULTIPLE_CHOICE,
            partial(
                lambda scene, settings, t, lv, ch, lb: direction_candidates(scene, t, lv, ch, lb, settings),
                t=_task,
                lv=_level,
                ch=_choices,
                lb=_label,
            ),
        ),
    )
