"""Route planning as data (VSI-Bench App. B.1, Table 3): a schema for annotated or planned routes.

A route starts at an object, facing another, and reaches a goal through steps of two kinds:
"Go forward until X" and "Turn left|right|back". The question shows every turn as ``[please fill in]``;
the options are turn sequences (the true one plus distractors), e.g. ``"Turn Right, Turn Left"``.

File format: JSON Lines, one route per line (or a JSON list of routes)::

    {"scene_id": "42899696", "dataset": "arkitscenes", "start": "the tv", "facing": "the bed",
     "goal": "the trash bin",
     "steps": [{"turn": "right"}, {"forward": "the cabinet"}, {"turn": "left"},
               {"forward": "the trash bin is on your right"}]}

``forward`` is the phrase after "Go forward until"; ``text`` replaces the whole step text when the
annotator wrote something else ("Go forward about 1 meter"). ``beginning`` replaces the default
"{start} facing {facing}" phrase.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from spatialbench.errors import SpatialBenchError
from spatialbench.generate.vsi.base import Candidate
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.generate.vsi.templates import render

TASK = "route_planning"
BLANK = "[please fill in]"
TURNS = ("left", "right", "back")
MAX_TURNS = 6  # the paper asks for about two to five movements; longer routes are refused


class RouteError(SpatialBenchError, ValueError):
    """An invalid route or route file; the message names the file, line and field."""


class RouteStep(BaseModel):
    """One step: exactly one of ``forward`` (phrase after "Go forward until") or ``turn``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    forward: str | None = None
    turn: Literal["left", "right", "back"] | None = None
    text: str | None = None  # verbatim text of a forward step, when not "Go forward until {forward}"

    @model_validator(mode="after")
    def _one_kind(self) -> RouteStep:
        if (self.turn is None) == (self.forward is None and self.text is None):
            raise ValueError("a step is either {'turn': left|right|back} or {'forward': phrase}")
        if self.turn is not None and self.text is not None:
            raise ValueError("a turn step takes no 'text' (it is shown as [please fill in])")
        return self

    def question_text(self) -> str:
        """Return the step as the question shows it (turns become the blank)."""
        if self.turn is not None:
            return BLANK
        return self.text if self.text is not None else f"Go forward until {self.forward}"


class Route(BaseModel):
    """A route from a start object to a goal (App. B.1, route plan).

    Raises (on construction):
        pydantic.ValidationError: no turn, more than ``MAX_TURNS`` turns, two turns in a row, or a route
            that does not end with a forward step.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    scene_id: str
    dataset: str = ""
    start: str
    facing: str
    goal: str
    steps: tuple[RouteStep, ...]
    beginning: str | None = None
    metadata: dict[str, Any] = {}

    @model_validator(mode="after")
    def _valid_sequence(self) -> Route:
        turns = self.turns
        if not 1 <= len(turns) <= MAX_TURNS:
            raise ValueError(f"a route needs 1 to {MAX_TURNS} turns, got {len(turns)}")
        if self.steps[-1].turn is not None:
            raise ValueError("a route ends with a forward step")
        kinds = [s.turn is not None for s in self.steps]
        if any(a and b for a, b in itertools.pairwise(kinds)):
            raise ValueError("two turns in a row: merge them into one turn")
        return self

    @property
    def turns(self) -> tuple[str, ...]:
        """The turn directions in order (the answer)."""
        return tuple(s.turn for s in self.steps if s.turn is not None)

    def question(self) -> str:
        """Render the official question text with ``[please fill in]`` blanks (Table 3)."""
        parts = [f"{i}. {s.question_text()}" for i, s in enumerate(self.steps, start=1)]
        steps = " ".join(parts).rstrip(".")
        beginning = self.beginning if self.beginning is not None else f"{self.start} facing {self.facing}"
        return render(TASK, beginning=beginning, goal=self.goal, steps=steps)


def turn_option(turns: Iterable[str]) -> str:
    """Option text of a turn sequence, e.g. ``("right", "left") -> "Turn Right, Turn Left"``."""
    return ", ".join(f"Turn {t.capitalize()}" for t in turns)


def distractor_weights(
    answer: tuple[str, ...], others: list[tuple[str, ...]], settings: GenerationSettings
) -> NDArray[np.float64]:
    """Drawing weight of each wrong turn sequence (``route_distractors``, issue 10).

    ``"official"``: ``route_one_turn_weight`` for a sequence that differs from the answer in one turn
    (else 1), times ``route_back_weight`` per "back" it holds; ``"uniform"``: all 1.
    """
    if settings.route_distractors == "uniform":
        return np.ones(len(others))
    return np.array(
        [
            (
                settings.route_one_turn_weight
                if sum(a != b for a, b in zip(seq, answer, strict=True)) == 1
                else 1.0
            )
            * settings.route_back_weight ** seq.count("back")
            for seq in others
        ]
    )


def route_slots(route: Route) -> dict[str, str]:
    """Return the route question's objects by the roles the stress-test's features name them.

    Route ends are written as the question words them ("the sofa"); the slots hold the object names
    (the article dropped, as the official TsT code cleans the names it parses).
    """
    roles = {"beginning_object": route.start, "facing_object": route.facing, "target_object": route.goal}
    return {role: name.removesuffix(" and").removeprefix("the ").strip() for role, name in roles.items()}


def route_candidate(
    route: Route, rng: np.random.Generator, n_options: int = 4, settings: GenerationSettings | None = None
) -> Candidate:
    """Build the route question as a multiple-choice candidate.

    Distractors are other turn sequences of the same length, drawn without replacement with the weights
    of :func:`distractor_weights` (default settings: near and "Turn Back"-shy, as the official options);
    a one-turn route has three options (left, right, back), as in the official data.
    """
    settings = settings or GenerationSettings()
    answer = route.turns
    others = [seq for seq in itertools.product(TURNS, repeat=len(answer)) if seq != answer]
    k = min(n_options - 1, len(others))
    weights = distractor_weights(answer, others, settings)
    drawn = rng.choice(len(others), size=k, replace=False, p=weights / weights.sum())
    picked = [others[i] for i in sorted(drawn)]
    return Candidate(
        task=TASK,
        scene_id=route.scene_id,
        dataset=route.dataset,
        question=route.question(),
        answer=turn_option(answer),
        choices=tuple(turn_option(seq) for seq in [answer, *picked]),
        metadata={"route": route.model_dump(mode="json", exclude_none=True), "slots": route_slots(route)},
    )


def load_routes(path: Path | str) -> list[Route]:
    """Read routes from JSON Lines (or a JSON list).

    Raises:
        RouteError: invalid JSON or an invalid route; the message names the file, line and field.
    """
    path = Path(path)
    text = path.read_text()
    if text.lstrip().startswith("["):
        rows = [(i + 1, r) for i, r in enumerate(json.loads(text))]
    else:
        rows = []
        for lineno, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    rows.append((lineno, json.loads(line)))
                except json.JSONDecodeError as err:
                    raise RouteError(f"{path}:{lineno}: invalid JSON: {err.msg}") from None
    routes = []
    for lineno, row in rows:
        try:
            routes.append(Route.model_validate(row))
        except ValidationError as err:
            fields = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'route'}: {e['msg']}" for e in err.errors())
            raise RouteError(f"{path}:{lineno}: {fields}") from None
    return routes


def write_routes(routes: Iterable[Route], path: Path | str) -> None:
    """Write routes as JSON Lines (fields left unset are omitted), readable by :func:`load_routes`."""
    lines = [json.dumps(r.model_dump(mode="json", exclude_none=True, exclude_defaults=True)) for r in routes]
    Path(path).write_text("".join(line + "\n" for line in lines))
