"""Strategies that answer at once: ``direct``, ``self-explanation``, ``answer-and-reason``."""

from __future__ import annotations

from dataclasses import dataclass, replace

from spatialbench.prompting.strategies.base import (
    Ask,
    Outcome,
    Reader,
    Strategy,
    reasoning_settings,
    texts,
    with_text,
)
from spatialbench.records.item import Item
from spatialbench.records.messages import Request, TextPart


@dataclass(frozen=True)
class Direct(Strategy):
    """One turn: the benchmark's request as it is (VSI-Bench Sec. 4.1, greedy decoding).

    A run with ``direct`` sends the request itself (one result row, no turn rows, the request keys of
    runs without strategies); other strategies compose this one (``self-explanation`` answers with it).
    """

    name = "direct"

    async def answer(self, request: Request, item: Item, ask: Ask, read: Reader) -> Outcome:
        """Return the model's reply to the request as the answer."""
        return Outcome((await ask("answer", request)).text)


@dataclass(frozen=True)
class SelfExplanation(Strategy):
    """The direct answer, then "Please explain your answer step by step." (VSI-Bench Sec. 5.1, App. B.2).

    The answer turn is scored; the explanation (greedy, ``reasoning_tokens`` of budget) is kept in the
    trace (``explanation``) and as turn ``explain`` for error annotation (App. B.2: not a chain of thought,
    the explanation comes after the answer).
    """

    name = "self-explanation"
    reasoning_tokens: int = 2048

    async def answer(self, request: Request, item: Item, ask: Ask, read: Reader) -> Outcome:
        """Answer as :class:`Direct` does, then explain in the same dialogue."""
        answer = (await Direct().answer(request, item, ask, read)).answer
        settings = reasoning_settings(request.settings, self.reasoning_tokens)
        follow = request.followup(answer, (TextPart(str(texts()["explain"])),), settings)
        explanation = await ask("explain", follow)
        return Outcome(answer, {"explanation": explanation.text})


@dataclass(frozen=True)
class AnswerAndReason(Strategy):
    """One turn whose output holds both an answer and a reason (MMSI-Video-Bench App. B, error analysis).

    App. B: "During error analysis we require models to produce both an answer and a reason to facilitate
    failure localization" — in the same output, unlike VSI-Bench's explanation turn after the answer
    (``self-explanation``). The request is the benchmark's, with ``texts.json`` ``answer_and_reason`` (ours)
    appended; the benchmark's extractor reads the answer from the reply. The turn is named ``explain`` so
    that ``errors sample`` shows the reply (reason and answer) as the item's explanation.
    """

    name = "answer-and-reason"
    reasoning_tokens: int = 2048

    async def answer(self, request: Request, item: Item, ask: Ask, read: Reader) -> Outcome:
        """Ask once for the reason and the answer; the reply is scored and kept as the explanation."""
        prompt = with_text(request, str(texts()["answer_and_reason"]))
        settings = reasoning_settings(request.settings, self.reasoning_tokens)
        reply = await ask("explain", replace(prompt, settings=settings))
        return Outcome(reply.text, {"extracted": read(reply.text)})
