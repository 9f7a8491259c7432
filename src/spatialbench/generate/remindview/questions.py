"""The 22 question templates (paper Table 6, ``data/templates.json``) instantiated on a frame set.

Each template has a *form*, the computation of its answer (App. B.3, ground-truth derivation):

- ``frame_distance`` (1, 2): the frame whose camera is closest to / furthest from frame k's camera;
- ``frame_move`` (3): how one moved from frame k's camera to frame j's, in the official code's words
  ("go opposite", "go left and go forward", "go right and go forward": frame j in front, front-left or
  front-right of frame k's view; all three are the choices);
- ``frame_at_direction`` (4): the frame standing "opposite", "left" or "right" (the same bins) of frame k's
  position; every other frame is a choice;
- ``object_distance`` (5–8, 15, 16): the object closest to / furthest from a camera or an object;
- ``object_direction`` (9, 11, 13, 18, 20, 22): the direction of an object from a viewer (a camera, or an
  object facing its front, optionally turned), measured at the viewer or at another object;
- ``object_in_direction`` (10, 12, 14, 17, 19, 21): the object in a direction of such a viewer.

The forms are in :mod:`~spatialbench.generate.remindview.forms`, the search over bindings in
:mod:`~spatialbench.generate.remindview.instantiate`.

Quality control (App. B.3, done here and not in the official code): distances must beat every other choice
by a gap (``QuestionSettings``), direction answers must be a margin away from a bin edge and a minimum
horizontal distance away, pairs of objects whose floor footprints overlap (one on the other) are never
related, object names in one question are never the same or similar, and no named object is a choice.
Distractors (:mod:`~spatialbench.generate.remindview.choices`): objects offered for "which ... is in
<direction>" lie two or more direction bins away from the answer; direction answers get the official
code's three directions sharing no component with the answer (four choices).

Counts (the official ``ground_truth_generation.py``): templates that name objects are asked only on frame
sets with at least ``min_objects`` (3, its ``min_object_list_len``) question objects; each template asks
up to its ``per_set`` of ``data/templates.json`` per frame set (its ``sample_num=2`` cameras or objects;
4 for 11 and 13, two objects times two others; one per camera for 17, 18; one per frame pair for 1-4; 3
where the code asks one per qualifying object, the bound its ``query_number < 3`` intends).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from spatialbench.generate.remindview.frameset import FrameSet
from spatialbench.prompting.templates import fill, read_json

_TAGS = {"SP": "non_perspective_changing", "PC": "perspective_changing"}
#: rules for the distractors of direction answers (``QuestionSettings.direction_choices``)
DIRECTION_CHOICES = ("official", "balanced")


@dataclass(frozen=True)
class QuestionSettings:
    """Thresholds of the quality control (the paper gives no numbers; these are this tool's).

    Attributes:
        distance_gap_m, distance_gap_rel: the answer's distance must differ from every other choice's by
            at least max(gap_m, gap_rel × the answer's distance).
        direction_margin_deg: an angle closer than this to a 45° bin edge is ambiguous.
        min_horizontal_m: a direction needs at least this XY distance.
        attempts: bindings tried per question kept; ``per_set``: questions kept per template and frame
            set (None: each template's own count, module docstring).
        min_objects: templates naming objects need this many question objects in the frame set.
        direction_choices: ``official`` (answer + 3 directions sharing no component) or ``balanced``
            (:class:`~spatialbench.generate.remindview.choices.PatternBalancer`).
    """

    distance_gap_m: float = 0.15
    distance_gap_rel: float = 0.1
    direction_margin_deg: float = 5.0
    min_horizontal_m: float = 0.3
    attempts: int = 40
    per_set: int | None = None
    min_objects: int = 3
    direction_choices: str = "official"

    def __post_init__(self) -> None:
        """Check the settings.

        Raises:
            ValueError: ``direction_choices`` is neither ``official`` nor ``balanced``.
        """
        if self.direction_choices not in DIRECTION_CHOICES:
            raise ValueError(
                f"direction_choices {self.direction_choices!r}: choose one of {', '.join(DIRECTION_CHOICES)}"
            )


@dataclass(frozen=True)
class Template:
    """One template of ``data/templates.json``."""

    index: int
    relation: str
    query_kind: str
    perspective: str | None
    form: str
    text: str
    params: dict[str, Any]

    @property
    def group(self) -> tuple[str, str, str | None]:
        """The Table 6 row of the template: relation, query kind, perspective."""
        return self.relation, self.query_kind, self.perspective

    @property
    def query_type(self) -> str:
        """``relation|query kind|[non_]perspective_changing|k`` (the official ``query_type`` layout).

        ``k`` numbers the template within its Table 6 row from 0, as the official
        ``ground_truth_generation.py`` does (template 5 is ``view-object|relative_distance|
        non_perspective_changing|0``); :attr:`index` is the 1-22 number over all templates.
        """
        tag = [_TAGS[self.perspective]] if self.perspective else []
        k = [t.index for t in templates() if t.group == self.group].index(self.index)
        return "|".join([self.relation, self.query_kind, *tag, str(k)])


@cache
def templates() -> tuple[Template, ...]:
    """Return the 22 templates in index order."""
    rows = read_json(__package__, "data/templates.json")["templates"]
    keys = ("index", "relation", "query_kind", "perspective", "form", "text")
    return tuple(
        Template(**{k: row[k] for k in keys}, params={k: v for k, v in row.items() if k not in keys})
        for row in rows
    )


@cache
def facing_categories() -> frozenset[str]:
    """Categories with a recognisable front (viewers "facing its direction")."""
    return frozenset(read_json(__package__, "data/templates.json")["facing_categories"])


@dataclass(frozen=True)
class Question:
    """An instantiated question before its choices are lettered.

    Attributes:
        bindings: placeholder → value: ``frame_k`` frame index, ``object_k`` instance id, ``direction``,
            ``turn``.
        objects: ids of every object the question names or offers; ``frame``: the frame whose view the
            question takes, if any (cross-frame is judged in that frame).
    """

    template: Template
    bindings: dict[str, Any]
    answer: str
    distractors: tuple[str, ...]
    objects: frozenset[int]
    frame: int | None

    def text(self, frames: FrameSet) -> str:
        """Return the question text with names filled in."""
        values = {
            key: frames.objects[value].name if key.startswith("object_") else str(value)
            for key, value in self.bindings.items()
        }
        return fill(self.template.text, values)

    def cross_frame(self, frames: FrameSet) -> bool:
        """Return True unless one frame shows every object involved (view–view: always True)."""
        if self.template.relation == "view-view" or not self.objects:
            return True
        return not frames.co_observed(set(self.objects), self.frame)
