"""The answer computations of the template forms (see :mod:`~spatialbench.generate.remindview.questions`).

Every form gets the template, its bindings and the wanted number of choices and returns a
:class:`~spatialbench.generate.remindview.questions.Question`, or None when the bindings fail the quality
control (a tie, an ambiguous direction, a vertical pair, too few valid distractors).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.generate.remindview.choices import PatternBalancer, official_distractors, pick_distractors
from spatialbench.generate.remindview.frameset import FrameSet
from spatialbench.generate.remindview.questions import Question, QuestionSettings, Template
from spatialbench.generate.remindview.relations import (
    Bearing,
    Viewer,
    bearing,
    distance,
    footprints_overlap,
    overlapping,
)

Bindings = dict[str, Any]


@dataclass(frozen=True)
class Context:
    """What one instantiation works with.

    The frame set, the quality-control settings, the instantiation's seeded generator and the data set's
    direction-pattern balancer.
    """

    frames: FrameSet
    settings: QuestionSettings
    rng: np.random.Generator
    patterns: PatternBalancer

    def gap(self, value: float) -> float:
        """Smallest allowed distance difference from an answer at ``value`` metres."""
        return max(self.settings.distance_gap_m, self.settings.distance_gap_rel * value)

    def clear_bearing(self, viewer: Viewer, point: NDArray[np.float64]) -> Bearing | None:
        """Return the bearing of ``point``, or None when it is near a bin edge or too close horizontally."""
        found = bearing(viewer, point)
        if found.margin_deg < self.settings.direction_margin_deg:
            return None
        return found if found.horizontal >= self.settings.min_horizontal_m else None

    def extreme(
        self, scored: list[tuple[str, float]], extreme: str, wanted: int
    ) -> tuple[str, tuple[str, ...]] | None:
        """Pick the closest (``min``) / furthest (``max``) (label, metres); distractors differ by the gap."""
        if len(scored) < 2:
            return None
        ordered = sorted(scored, key=lambda s: s[1] if extreme == "min" else -s[1])
        answer, value = ordered[0]
        pool = [label for label, d in ordered[1:] if abs(d - value) >= self.gap(value)]
        distractors = pick_distractors(pool, wanted, self.rng)
        return None if distractors is None else (answer, distractors)

    def viewer(self, template: Template, bindings: Bindings) -> tuple[Viewer, int | None]:
        """Return a direction template's viewer (turned, moved to its origin) and the frame it views from."""
        if template.params["heading"] == "frame_1":
            viewer, frame = self.frames.camera(bindings["frame_1"]), bindings["frame_1"]
        else:
            viewer, frame = self.frames.objects[bindings["object_1"]].viewer(), None
        if "turn" in bindings:
            viewer = viewer.turned(bindings["turn"])
        origin = template.params["origin"]
        if origin != "viewer":
            viewer = viewer.at(self.frames.objects[bindings[origin]].center)
        return viewer, frame

    def origin_object(self, template: Template, bindings: Bindings) -> int | None:
        """Return the object at the viewer's position, if any (checked for vertical pairs)."""
        origin = template.params.get("origin", "viewer")
        if origin.startswith("object_"):
            return int(bindings[origin])
        return int(bindings["object_1"]) if template.params.get("heading") == "object_1" else None

    def apart(self, a: int | None, b: int) -> bool:
        """Not a vertical pair: the floor footprints of objects ``a`` and ``b`` do not overlap."""
        if a is None:
            return True
        return not footprints_overlap(self.frames.objects[a].footprint, self.frames.objects[b].footprint)

    def candidates(self, bindings: Bindings, origin: int | None) -> list[int]:
        """Objects that may be offered: not named in the question, not a vertical pair with ``origin``."""
        named = {v for k, v in bindings.items() if k.startswith("object_")}
        return [i for i in sorted(self.frames.objects) if i not in named and self.apart(origin, i)]


def _question(
    template: Template,
    bindings: Bindings,
    choice: tuple[str, tuple[str, ...]] | None,
    offered: set[int],
    frame: int | None,
) -> Question | None:
    if choice is None:
        return None
    named = {int(v) for k, v in bindings.items() if k.startswith("object_")}
    return Question(template, bindings, choice[0], choice[1], frozenset(named | offered), frame)


def _direction_answer(
    ctx: Context,
    template: Template,
    bindings: Bindings,
    found: Bearing | None,
    wanted: int,
    frame: int | None,
) -> Question | None:
    """Return a question answered by ``found``'s direction, with direction distractors (None if unclear).

    Distractors: the official rule (three directions sharing no component with the answer) or, with
    ``direction_choices="balanced"``, the pattern-balanced sets of :class:`~.choices.PatternBalancer`.
    """
    if found is None:
        return None
    if ctx.settings.direction_choices == "official":
        distractors: tuple[str, ...] | None = official_distractors(found.direction, ctx.rng)
    else:
        distractors = ctx.patterns.pick(template.index, found.direction, wanted, ctx.rng)
    choice = None if distractors is None else (found.direction, distractors)
    return _question(template, bindings, choice, set(), frame)


def frame_distance(ctx: Context, template: Template, bindings: Bindings, wanted: int) -> Question | None:
    """Templates 1, 2: the frame whose camera is closest to / furthest from frame_1's."""
    anchor = ctx.frames.camera(bindings["frame_1"]).position
    scored = [
        (f"frame{f}", distance(ctx.frames.camera(f).position, anchor))
        for f in range(ctx.frames.frame_count)
        if f != bindings["frame_1"]
    ]
    return _question(template, bindings, ctx.extreme(scored, template.params["extreme"], wanted), set(), None)


def _frame_words(ctx: Context, template: Template, frame_1: int) -> dict[int, str]:
    """Other frames → the template's word for where each stands from frame_1's view.

    ``params["words"]`` maps a direction bin to the official code's word; frames without a clear bearing
    or in a bin without a word are left out.
    """
    viewer, words = ctx.frames.camera(frame_1), template.params["words"]
    found = {}
    for f in range(ctx.frames.frame_count):
        bearing_of_f = None if f == frame_1 else ctx.clear_bearing(viewer, ctx.frames.camera(f).position)
        if bearing_of_f is not None and bearing_of_f.direction in words:
            found[f] = words[bearing_of_f.direction]
    return found


def frame_move(ctx: Context, template: Template, bindings: Bindings, wanted: int) -> Question | None:
    """Template 3: how one moved from frame_1's camera to frame_2's, in the official words (all offered)."""
    answer = _frame_words(ctx, template, bindings["frame_1"]).get(bindings["frame_2"])
    if answer is None:
        return None
    others = tuple(w for w in template.params["words"].values() if w != answer)
    return _question(template, bindings, (answer, others), set(), None)


def frame_at_direction(ctx: Context, template: Template, bindings: Bindings, wanted: int) -> Question | None:
    """Template 4: the frame at a drawn official word ("opposite", "left", "right") of frame_1's position.

    Every other frame is offered (the official choices), so each must have a word of its own.
    """
    words = _frame_words(ctx, template, bindings["frame_1"])
    others = [f for f in range(ctx.frames.frame_count) if f != bindings["frame_1"]]
    if len(others) < 2 or sorted(words) != others or len(set(words.values())) < len(words):
        return None
    answer = others[int(ctx.rng.integers(len(others)))]
    distractors = tuple(f"frame{f}" for f in others if f != answer)
    return _question(
        template, {**bindings, "direction": words[answer]}, (f"frame{answer}", distractors), set(), None
    )


def _pick_in_direction(
    ctx: Context,
    template: Template,
    bindings: Bindings,
    bearings: dict[str, Bearing | None],
    wanted: int,
    ids: dict[str, int],
    frame: int | None,
) -> Question | None:
    """Answer = a random label with a clear bearing; distractors: labels not in the same or an adjacent bin.

    ``ids``: object label → instance id (empty for frames).
    """
    clear = {label: b for label, b in bearings.items() if b is not None}
    if not clear:
        return None
    labels = sorted(clear)
    answer = labels[int(ctx.rng.integers(len(labels)))]
    direction = clear[answer].direction
    pool = [label for label in labels if not overlapping(clear[label].direction, direction)]
    distractors = pick_distractors(pool, wanted, ctx.rng)
    if distractors is None:
        return None
    offered = {ids[label] for label in (answer, *distractors) if label in ids}
    return _question(template, {**bindings, "direction": direction}, (answer, distractors), offered, frame)


def object_distance(ctx: Context, template: Template, bindings: Bindings, wanted: int) -> Question | None:
    """Templates 5–8, 15, 16: the object closest to / furthest from frame_1's camera or object_1."""
    origin = template.params["origin"]
    if origin == "frame_1":
        point, frame, anchor = ctx.frames.camera(bindings["frame_1"]).position, bindings["frame_1"], None
    else:
        point, frame, anchor = ctx.frames.objects[bindings["object_1"]].center, None, bindings["object_1"]
    objects = ctx.frames.objects
    scored = [(objects[i].name, distance(objects[i].center, point)) for i in ctx.candidates(bindings, anchor)]
    choice = ctx.extreme(scored, template.params["extreme"], wanted)
    ids = {objects[i].name: i for i in ctx.candidates(bindings, anchor)}
    offered = set() if choice is None else {ids[n] for n in (choice[0], *choice[1])}
    return _question(template, bindings, choice, offered, frame)


def object_direction(ctx: Context, template: Template, bindings: Bindings, wanted: int) -> Question | None:
    """Templates 9, 11, 13, 18, 20, 22: the direction of the target object from the viewer."""
    target = bindings[template.params["target"]]
    origin = ctx.origin_object(template, bindings)
    if not ctx.apart(origin, target):
        return None
    viewer, frame = ctx.viewer(template, bindings)
    found = ctx.clear_bearing(viewer, ctx.frames.objects[target].center)
    return _direction_answer(ctx, template, bindings, found, wanted, frame)


def object_in_direction(ctx: Context, template: Template, bindings: Bindings, wanted: int) -> Question | None:
    """Templates 10, 12, 14, 17, 19, 21: the object in ``direction`` of the viewer (direction drawn)."""
    viewer, frame = ctx.viewer(template, bindings)
    candidates = ctx.candidates(bindings, ctx.origin_object(template, bindings))
    objects = ctx.frames.objects
    bearings = {objects[i].name: ctx.clear_bearing(viewer, objects[i].center) for i in candidates}
    ids = {objects[i].name: i for i in candidates}
    return _pick_in_direction(ctx, template, bindings, bearings, wanted, ids, frame)


Form = Callable[[Context, Template, Bindings, int], Question | None]
FORMS: dict[str, Form] = {
    "frame_distance": frame_distance,
    "frame_move": frame_move,
    "frame_at_direction": frame_at_direction,
    "object_distance": object_distance,
    "object_direction": object_direction,
    "object_in_direction": object_in_direction,
}
