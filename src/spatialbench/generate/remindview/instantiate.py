"""Search over a template's bindings (frames, objects, turns) for questions that pass the quality control."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations
from typing import Any

import numpy as np

from spatialbench.generate.remindview.choices import MAX_CHOICES, PatternBalancer, all_distinct
from spatialbench.generate.remindview.forms import FORMS, Context
from spatialbench.generate.remindview.frameset import FrameSet
from spatialbench.generate.remindview.questions import Question, QuestionSettings, Template
from spatialbench.generate.remindview.relations import TURNS
from spatialbench.prompting.templates import placeholders


def bindings(frames: FrameSet, template: Template, rng: np.random.Generator) -> Iterator[dict[str, Any]]:
    """Every assignment of the template's frame, object and turn placeholders, in a seeded random order.

    Objects are distinct question objects; ``object_1`` has a front when the template faces its direction.
    """
    names = placeholders(template.text)
    frame_keys = [f for f in ("frame_1", "frame_2") if f in names]
    object_keys = sorted(n for n in names if n.startswith("object_"))
    frame_sets = list(permutations(range(frames.frame_count), len(frame_keys)))
    object_sets = list(permutations(sorted(frames.objects), len(object_keys)))
    turns: list[str | None] = [*sorted(TURNS)] if "turn" in names else [None]
    combos = [(f, o, t) for f in frame_sets for o in object_sets for t in turns]
    faces = template.params.get("heading") == "object_1"
    for index in rng.permutation(len(combos)):
        chosen_frames, chosen_objects, turn = combos[index]
        if faces and frames.objects[chosen_objects[0]].heading is None:
            continue
        values: dict[str, Any] = dict(zip(frame_keys, chosen_frames, strict=True))
        values |= dict(zip(object_keys, chosen_objects, strict=True))
        if turn is not None:
            values["turn"] = turn
        yield values


def names_distinct(question: Question, frames: FrameSet) -> bool:
    """No two object names of the question (named and offered) are the same or similar."""
    return all_distinct([frames.objects[i].name for i in sorted(question.objects)])


def instantiate(
    frames: FrameSet,
    template: Template,
    settings: QuestionSettings,
    rng: np.random.Generator,
    patterns: PatternBalancer,
) -> list[Question]:
    """Return up to ``per_set`` questions of ``template`` on ``frames``, from ``attempts`` bindings each.

    As in the official code, a question offers as many choices as it can, up to ``MAX_CHOICES``: bindings
    that allow four are preferred, and only when too few of the tried ones do are questions with fewer
    choices kept (most first). Direction answers always have four under the official rule
    (:func:`~.choices.official_distractors`); frame templates 3 and 4 offer their fixed choices.
    """
    context, form = Context(frames, settings, rng, patterns), FORMS[template.form]
    per_set = settings.per_set or int(template.params["per_set"])
    found: list[Question] = []
    spare: list[Question] = []
    for tries, values in enumerate(bindings(frames, template, rng)):
        if tries >= settings.attempts * per_set or len(found) >= per_set:
            break
        question = form(context, template, values, MAX_CHOICES)
        if question is None or not names_distinct(question, frames):
            continue
        if len(question.distractors) + 1 == MAX_CHOICES:
            found.append(question)
        else:
            spare.append(question)
    spare.sort(key=lambda q: -len(q.distractors))
    return found + spare[: max(0, per_set - len(found))]
