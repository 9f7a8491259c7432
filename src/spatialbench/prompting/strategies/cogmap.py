"""Cognitive-map strategies (VSI-Bench Sec. 6, App. B.4): ``cognitive-map`` and ``map-then-answer``.

``cognitive-map`` asks for the map alone (the locality study, Sec. 6.1): the item's media and the official
map prompt (:func:`spatialbench.prompting.cogmap.map_prompt`, ``grid_size`` × ``grid_size``) for the
categories of interest; the reply is parsed (:func:`~spatialbench.prompting.cogmap_parse.parse_map`,
never raises) into the trace, with the ground-truth map beside it when scenes are known. Its answer is
the map text, not an answer to the question: the run's score table of such a run says nothing (every item
is "no answer"); the maps are its output (``results.raw.trace``).

``map-then-answer`` (Sec. 6.2, Table 3a): turn 1 the map, turn 2 the benchmark's question text, with
"According to the original video and the predicted objects' center locations, answer the following
question:" as its pre-prompt (in place of "These are frames of a video.", as the official cogmap branch
sends it; put before the text for a benchmark without a pre-prompt); the media are shown once, in turn 1.
``map_source="ground_truth"`` puts the ground-truth map (as text,
:func:`~spatialbench.prompting.cogmap.format_map`) in the model's place in turn 1, so only turn 2 is sent
(Table 3a's "GT" rows).

Categories of interest (App. B.4): ``categories="question"`` — those the question names
(:func:`~spatialbench.prompting.cogmap.categories_of_interest`; relative distance, relative direction,
absolute distance); ``"scene"`` — every category of the item's scene (needs scenes). A task without a
rule falls back to the scene's categories when scenes are known and is otherwise an error for that item.
Scenes come from the run (``meta_info`` parameter, :mod:`spatialbench.runs.dialogue`) as a
:class:`SceneMaps`; the map turn is greedy with ``reasoning_tokens`` of budget. In turn 1 the media come
first, whatever the benchmark's input order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from spatialbench.prompting.cogmap import (
    categories_of_interest,
    format_map,
    map_prompt,
    map_then_answer_prefix,
)
from spatialbench.prompting.cogmap_parse import parse_map
from spatialbench.prompting.strategies.base import Ask, Outcome, Reader, Strategy, reasoning_settings
from spatialbench.records.item import Item
from spatialbench.records.messages import ImagePart, Request, TextPart

Points = dict[str, list[tuple[float, float]]]


class SceneMaps(Protocol):
    """What the cognitive-map strategies read of an item's scene (given by the run)."""

    def categories(self, item: Item) -> tuple[str, ...]:
        """Return every category of the item's scene, as questions name them."""
        ...

    def ground_truth(self, item: Item, categories: Sequence[str], grid_size: int) -> Points:
        """Return the ground-truth map of ``categories`` on a ``grid_size`` grid (cells)."""
        ...


def _not_a_parameter() -> Any:
    return field(default=None, compare=False, repr=False, metadata={"parameter": False})


@dataclass(frozen=True)
class _MapStrategy(Strategy):
    """Shared parts of the two map strategies (see the module docstring)."""

    grid_size: int = 10
    categories: str = "question"
    meta_info: str = ""
    reasoning_tokens: int = 1024
    scenes: SceneMaps | None = _not_a_parameter()

    def __post_init__(self) -> None:
        if self.categories not in ("question", "scene"):
            raise ValueError(f"strategy parameter categories: 'question' or 'scene', not {self.categories!r}")
        if self.grid_size < 2:
            raise ValueError(f"strategy parameter grid_size must be at least 2, got {self.grid_size}")

    def wanted(self, item: Item) -> tuple[str, ...]:
        """Return the categories of interest of ``item`` (rules in the module docstring).

        Raises:
            ValueError: no rule for the task and no scenes; the question is not in its task's official
                wording (``CategoryRuleError``).
        """
        if self.categories == "question":
            names = categories_of_interest(item.task, item.question, item.options)
            if names:
                return names
        if self.scenes is None:
            why = "has no categories-of-interest rule" if self.categories == "question" else "needs scenes"
            raise ValueError(f"task {item.task} {why}: give -S meta_info=PATH (the scenes' meta-info)")
        return self.scenes.categories(item)

    def map_request(self, request: Request, names: Sequence[str]) -> Request:
        """Return turn 1: the request's media, then the official map prompt (greedy, map budget)."""
        images = tuple(p for p in request.parts if isinstance(p, ImagePart))
        settings = reasoning_settings(request.settings, self.reasoning_tokens)
        prompt = TextPart(map_prompt(names, self.grid_size))
        return replace(request, parts=(*images, prompt), settings=settings)

    def truth(self, item: Item, names: Sequence[str]) -> Points | None:
        """Return the ground-truth map of ``names`` when scenes are known."""
        return None if self.scenes is None else self.scenes.ground_truth(item, names, self.grid_size)


def _trace(text: str, names: Sequence[str], truth: Points | None) -> dict[str, Any]:
    parsed = parse_map(text, names)
    return {
        "categories": list(names),
        "map": {k: [list(p) for p in v] for k, v in parsed.points.items()},
        "unknown": list(parsed.unknown),
        "missing": list(parsed.missing),
        "problems": list(parsed.problems),
        "ground_truth": truth,
    }


@dataclass(frozen=True)
class CognitiveMap(_MapStrategy):
    """The map alone, for the locality study (Sec. 6.1, App. B.4); every scene category by default."""

    name = "cognitive-map"
    categories: str = "scene"

    async def answer(self, request: Request, item: Item, ask: Ask, read: Reader) -> Outcome:
        """Ask for the map; the trace holds it parsed, beside the ground truth."""
        names = self.wanted(item)
        reply = await ask("map", self.map_request(request, names))
        return Outcome(reply.text, _trace(reply.text, names, self.truth(item, names)))


@dataclass(frozen=True)
class MapThenAnswer(_MapStrategy):
    """The map, then the question in the same dialogue (Sec. 6.2, Table 3a); or the ground-truth map."""

    name = "map-then-answer"
    map_source: str = "own"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.map_source not in ("own", "ground_truth"):
            raise ValueError(
                f"strategy parameter map_source: 'own' or 'ground_truth', not {self.map_source!r}"
            )

    def pre_prompt(self) -> str:
        """Return the sentence turn 2 starts with (the cogmap branch's pre-prompt)."""
        return map_then_answer_prefix()

    async def answer(self, request: Request, item: Item, ask: Ask, read: Reader) -> Outcome:
        """Map (the model's or the ground truth), then the question."""
        names = self.wanted(item)
        truth = self.truth(item, names)
        first = self.map_request(request, names)
        if self.map_source == "own":
            map_text = (await ask("map", first)).text
        elif truth is None:
            raise ValueError("map_source=ground_truth needs scenes: give -S meta_info=PATH")
        else:
            map_text = format_map(truth)
        question = "".join(p.text for p in request.parts if isinstance(p, TextPart)).strip()
        # a benchmark with a pre-prompt already starts with the sentence (pre_prompt); others get it first
        prefix = map_then_answer_prefix()
        turn = TextPart(question if question.startswith(prefix) else f"{prefix}\n{question}")
        reply = await ask("answer", first.followup(map_text, (turn,), request.settings))
        return Outcome(reply.text, {**_trace(map_text, names, truth), "map_source": self.map_source})
