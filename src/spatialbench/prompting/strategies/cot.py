"""Chain-of-thought strategies.

``zero-shot-cot`` and ``self-consistency`` (VSI-Bench Sec. 5.2, App. B.3), ``mmsi-three-step``
(MMSI-Video-Bench Sec. 7.2, App. B).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from spatialbench.prompting.strategies.base import (
    Ask,
    Outcome,
    Reader,
    Strategy,
    cot_then_extract,
    format_value,
    gather_all,
    reasoning_settings,
    texts,
    with_text,
)
from spatialbench.prompting.strategies.vote import majority
from spatialbench.records.item import Item
from spatialbench.records.messages import Request


@dataclass(frozen=True)
class ZeroShotCoT(Strategy):
    """Append "Let's think step by step." to the question (greedy), then ask an extraction turn (B.3).

    The question is sent without the benchmark's answer-directly post-prompt (VSI-Bench Table 9's "Answer
    with the option's letter from the given choices directly." would tell the model not to reason): the
    run builds it with the builder's ``build_reasoning``; the answer format is asked by the extraction turn.

    App. B.3 sets temperature 0, top-p 1, top-k 1 (greedy: the run's decoding, greedy by default). The
    extraction turn asks for only the letter or the number (our text, ``texts.json`` ``extract``); its
    reply is the answer scored.
    """

    name = "zero-shot-cot"
    reasons = True
    reasoning_tokens: int = 2048

    async def answer(self, request: Request, item: Item, ask: Ask, read: Reader) -> Outcome:
        """Reason, then extract."""
        cot = with_text(request, str(texts()["cot_trigger"]))
        settings = reasoning_settings(request.settings, self.reasoning_tokens)
        _, extracted = await cot_then_extract(ask, "", cot, item, settings)
        return Outcome(extracted, {"extracted": read(extracted)})


@dataclass(frozen=True)
class SelfConsistency(Strategy):
    """``samples`` zero-shot-CoT runs, sampled, each with its extraction turn; majority vote (App. B.3).

    App. B.3: 5 runs at temperature 0.7, top-p 1, top-k 40 (Sec. 5.2 says temperature 1.0: set
    ``temperature``). Sample ``i`` (0-based) is sent with seed ``run seed + i``, so seeded servers give
    different samples. Votes are the extracted values (numbers vote by value); ties go to the value cast
    first (:mod:`~spatialbench.prompting.strategies.vote`). The answer is the winning value as text; with
    no extracted value at all, the first sample's extraction reply (scored as no answer).
    """

    name = "self-consistency"
    reasons = True
    samples: int = 5
    temperature: float = 0.7
    top_p: float = 1.0
    top_k: int = 40
    reasoning_tokens: int = 2048

    async def answer(self, request: Request, item: Item, ask: Ask, read: Reader) -> Outcome:
        """Sample, extract, vote."""
        cot = with_text(request, str(texts()["cot_trigger"]))
        seed = request.settings.seed
        runs = []
        for i in range(self.samples):
            settings = reasoning_settings(
                request.settings,
                self.reasoning_tokens,
                temperature=self.temperature,
                top_p=self.top_p,
                top_k=self.top_k,
                seed=None if seed is None else seed + i,
            )
            runs.append(cot_then_extract(ask, f"sample-{i + 1}/", cot, item, settings))
        extractions = [extracted for _, extracted in await gather_all(runs)]
        values: list[str | float | None] = [read(text) for text in extractions]
        winner = majority(values)
        answer = extractions[0] if winner is None else format_value(winner)
        return Outcome(answer, {"votes": values, "winner": winner})


@dataclass(frozen=True)
class MMSIThreeStep(Strategy):
    """MMSI-Video-Bench's three-step chain of thought (Sec. 7.2; App. B: the steps, then the final answer).

    The three steps (the paper's words, ``texts.json`` ``mmsi_three_step``) follow the question; the
    model writes each step and then its answer in the benchmark's own format, read by the benchmark's
    extractor. ``extract`` adds the extraction turn of ``zero-shot-cot`` (not in the paper).
    """

    name = "mmsi-three-step"
    extract: bool = False
    reasoning_tokens: int = 2048

    async def answer(self, request: Request, item: Item, ask: Ask, read: Reader) -> Outcome:
        """One reasoning turn (and the extraction turn when ``extract``)."""
        steps = with_text(request, str(texts()["mmsi_three_step"]))
        settings = reasoning_settings(request.settings, self.reasoning_tokens)
        if self.extract:
            _, extracted = await cot_then_extract(ask, "", steps, item, settings)
            return Outcome(extracted, {"extracted": read(extracted)})
        reply = await ask("answer", replace(steps, settings=settings))
        return Outcome(reply.text, {"extracted": read(reply.text)})
