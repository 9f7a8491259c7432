"""What a prompting strategy is: turns it asks for, how it combines the answers, what it records.

A strategy turns the benchmark's request for an item (media + question, built by the benchmark's prompt
builder) into one final answer text, which is scored as a direct answer would be. It never calls a back
end itself: the run hands it an :data:`Ask` (send one named turn, get the model's :class:`Response`) and
a :data:`Reader` (the benchmark's answer extractor for this item: text → letter, number or None). So
strategies stay pure prompt logic on layer 1 and the run decides how turns are sent, stored and resumed
(:mod:`spatialbench.runs.dialogue`).

Turn names are paths, unique within an item (``"cot"``, ``"sample-3/extract"``, ``"plan-vote-2"``): the
run keys each turn by its name and content, so a resumed run re-sends only the turns it has no answer for.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, TypeVar

from spatialbench.prompting.templates import fill, read_json
from spatialbench.records.item import AnswerKind, Item
from spatialbench.records.messages import GenerationSettings, Request, Response, TextPart

Ask = Callable[[str, Request], Awaitable[Response]]
"""``await ask(turn_name, request)``: the model's response to one turn (raises the back end's errors)."""
Reader = Callable[[str], "str | float | None"]
"""The item's answer extractor: the letter, the number, or None for no answer (never raises)."""
Scalar = str | int | float | bool


T = TypeVar("T")


async def gather_all(turns: Iterable[Awaitable[T]]) -> list[T]:
    """Await every turn (concurrently) and return their results in order; then raise the first error.

    Unlike a plain ``asyncio.gather``, a failed turn does not leave its siblings running: all of them
    end (and store their answers) before the error reaches the run, so nothing received is lost and no
    turn writes after the run closed its store. Cancelling the caller cancels every turn.

    Raises:
        the first (in turn order) exception a turn raised.
    """
    results = await asyncio.gather(*turns, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results  # type: ignore[return-value]


@dataclass(frozen=True)
class Outcome:
    """A strategy's result for one item.

    Attributes:
        answer: the text that is scored (an extraction turn's reply, a voted value, a direct answer).
        trace: what the strategy decided, JSON-serialisable (votes, chosen plan, explanation...).
    """

    answer: str
    trace: dict[str, Any] = field(default_factory=dict)


def texts() -> dict[str, Any]:
    """Return the strategies' prompt texts (``texts.json``; its ``_source`` names the papers' words)."""
    return dict(read_json(__package__, "texts.json"))


def with_text(request: Request, text: str) -> Request:
    """``request`` with ``text`` appended to its user turn as a new line (media untouched)."""
    return replace(request, parts=(*request.parts, TextPart("\n" + text)))


def extraction_prompt(item: Item) -> str:
    """Return the answer-extraction turn for ``item`` (ours; App. B.3 describes it): letter or number."""
    extract = texts()["extract"]
    if item.answer_kind is AnswerKind.NUMERICAL:
        return str(extract["numerical"])
    letters = item.option_letters
    if not letters:
        return str(extract["multiple_choice"])
    listed = letters[0] if len(letters) == 1 else f"{', '.join(letters[:-1])} or {letters[-1]}"
    return fill(extract["multiple_choice_letters"], {"letters": listed})


def format_value(value: str | float) -> str:
    """Write an extracted answer as answer text: the letter, or the number via ``repr`` (``2.0``)."""
    return value if isinstance(value, str) else repr(float(value))


def parameter_fields(strategy: Any) -> list[Any]:
    """Return the dataclass fields of a strategy (class or instance) that are parameters.

    A field with ``metadata={"parameter": False}`` is set by the run, not by the user (the scenes a
    cognitive-map strategy reads), and is neither recorded nor accepted as ``-S``.
    """
    return [f for f in fields(strategy) if f.metadata.get("parameter", True)]


@dataclass(frozen=True)
class Strategy(ABC):
    """A registered prompting strategy; its dataclass fields are its parameters (recorded with the run).

    Subclasses set ``name`` and implement :meth:`answer`. Sampling parameters, where a strategy samples,
    are ``temperature``, ``top_p``, ``top_k``; ``reasoning_tokens`` is the answer budget of turns that
    reason at length (a chain of thought, a plan), the run's budget applying to short answers.
    ``reasons`` marks a strategy whose turns reason before the answer format is asked.
    """

    name: ClassVar[str] = ""
    #: True for strategies whose first turn reasons (a chain of thought, a plan): the run then builds the
    #: item's request with the builder's ``build_reasoning`` (no answer-directly post-prompt, App. B.3)
    reasons: ClassVar[bool] = False

    def parameters(self) -> dict[str, Scalar]:
        """Return the parameters as recorded in the run config (every field, defaults filled)."""
        return {f.name: getattr(self, f.name) for f in parameter_fields(self)}

    def pre_prompt(self) -> str | None:
        """Return the text that replaces the benchmark's pre-prompt in the strategy's request (None: keep it).

        The run sets it as the ``pre_prompt`` prompt field where the benchmark's builder has one and the user
        gave none (map-then-answer: the official cogmap branch's turn 2, VSI-Bench Sec. 6.2).
        """
        return None

    @abstractmethod
    async def answer(self, request: Request, item: Item, ask: Ask, read: Reader) -> Outcome:
        """Answer ``item``, whose benchmark request (media + question, run settings) is ``request``."""


def reasoning_settings(base: GenerationSettings, tokens: int, **sampling: Any) -> GenerationSettings:
    """Return ``base`` with at least ``tokens`` of answer budget and the sampling fields replaced."""
    return replace(base, max_new_tokens=max(base.max_new_tokens, tokens), **sampling)


async def cot_then_extract(
    ask: Ask, turn: str, request: Request, item: Item, settings: GenerationSettings
) -> tuple[str, str]:
    """Ask ``request`` (a chain-of-thought prompt) with ``settings``, then the extraction turn.

    The extraction turn is greedy with the run's answer budget (``request.settings`` with temperature 0:
    reading off an answer should not sample). Turns are ``{turn}cot`` and ``{turn}extract``.

    Returns:
        (the reasoning text, the extraction reply).
    """
    reasoning = await ask(f"{turn}cot", replace(request, settings=settings))
    greedy = replace(request.settings, temperature=0.0, top_p=1.0, top_k=None)
    extraction = request.followup(reasoning.text, (TextPart(extraction_prompt(item)),), greedy)
    return reasoning.text, (await ask(f"{turn}extract", extraction)).text
