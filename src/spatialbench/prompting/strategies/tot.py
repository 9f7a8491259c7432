"""``tree-of-thought``: plans, a vote on the plans, answers from the chosen plan, a vote on the answers.

VSI-Bench App. B.3 (after the "Creative Writing" practice of Yao et al. 2023): in one request the model
writes ``plans`` distinct plans (3; "we ask the model to generate 3 distinct plans"), each starting
"Plan K:" (:func:`split_plans`; a reply with fewer marked plans gives fewer choices, one with none is one
plan); in new dialogues (the video, the question, the numbered plans) it picks the most promising plan
``plan_votes`` times (3) and the majority plan is kept; from it ``answers`` independent answers (3) are
written, each with the extraction turn of ``zero-shot-cot``; ``answer_votes`` new dialogues (3) pick the
best answer and the majority of those votes names the answer whose extracted value is the prediction
("the model votes 3 times to determine the most confident answer. A majority vote determines the final
prediction"). No turn carries the benchmark's answer-directly post-prompt (the run builds the request
with ``build_reasoning``); the answer format comes from the extraction turns. Every turn except the
extraction samples with the self-consistency settings (temperature 0.7, top-p 1, top-k 40); sample
``i`` of a step is sent with seed ``run seed + i``. Votes read "The best choice is N"
(:func:`~.vote.read_vote`); a vote naming no valid choice abstains; ties and an all-abstaining vote go
to the lowest-numbered choice. Requests per item: 1 + plan votes + 2 × answers + answer votes (13 with
the defaults).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from spatialbench.prompting.strategies.base import (
    Ask,
    Outcome,
    Reader,
    Strategy,
    cot_then_extract,
    gather_all,
    reasoning_settings,
    texts,
    with_text,
)
from spatialbench.prompting.strategies.vote import majority, read_vote
from spatialbench.prompting.templates import fill
from spatialbench.records.item import Item
from spatialbench.records.messages import GenerationSettings, Request

_PLAN = re.compile(r"^[\s*#]*plan\s*(\d+)\s*\**\s*[:.)-]", re.IGNORECASE | re.MULTILINE)


def split_plans(text: str, limit: int) -> list[str]:
    """Return the plans of one reply, split at lines starting "Plan K:" (at most ``limit``; never raises).

    Text before the first marker is dropped; a reply with no marker is one plan (the whole reply, so a
    vote still has a choice); empty plans are dropped.
    """
    text = text if isinstance(text, str) else ""
    starts = [m.start() for m in _PLAN.finditer(text)]
    if not starts:
        return [text.strip()]
    pieces = [text[a:b].strip() for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]
    return [p for p in pieces if p][:limit] or [text.strip()]


def numbered(choices: list[str]) -> str:
    """Write the choices as ``Choice 1:`` + text blocks, separated by blank lines."""
    heading = str(texts()["choice_heading"])
    return "\n\n".join(f"{fill(heading, {'number': str(k + 1)})}\n{c}" for k, c in enumerate(choices))


@dataclass(frozen=True)
class TreeOfThought(Strategy):
    """Tree-of-Thought with plan and answer votes (App. B.3); see the module docstring."""

    name = "tree-of-thought"
    reasons = True
    plans: int = 3
    plan_votes: int = 3
    answers: int = 3
    answer_votes: int = 3
    temperature: float = 0.7
    top_p: float = 1.0
    top_k: int = 40
    reasoning_tokens: int = 2048

    def _settings(self, request: Request, i: int) -> GenerationSettings:
        seed = request.settings.seed
        return reasoning_settings(
            request.settings,
            self.reasoning_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            top_k=self.top_k,
            seed=None if seed is None else seed + i,
        )

    async def _sampled(self, ask: Ask, step: str, count: int, prompt: Request) -> list[str]:
        """``count`` sampled replies to ``prompt``, turns ``{step}-1`` .. ``{step}-{count}``."""
        turns = (
            ask(f"{step}-{i + 1}", replace(prompt, settings=self._settings(prompt, i))) for i in range(count)
        )
        return [reply.text for reply in await gather_all(turns)]

    async def _vote(
        self, ask: Ask, step: str, count: int, request: Request, template: str, choices: list[str]
    ) -> tuple[int, list[int | None]]:
        """Return (the 0-based winning choice, every vote) of ``count`` vote dialogues over ``choices``."""
        values = {"n": str(len(choices)), "choices": numbered(choices)}
        prompt = with_text(request, fill(str(texts()[template]), values))
        votes = [read_vote(text, len(choices)) for text in await self._sampled(ask, step, count, prompt)]
        winner = majority(sorted_ties(votes))
        return (0 if winner is None else int(winner)), votes

    async def answer(self, request: Request, item: Item, ask: Ask, read: Reader) -> Outcome:
        """Plans, plan votes, answers with extraction, answer votes."""
        plan_prompt = with_text(request, fill(str(texts()["tot_plan"]), {"n": str(self.plans)}))
        (reply,) = await self._sampled(ask, "plan", 1, plan_prompt)
        plans = split_plans(reply, self.plans)
        chosen, plan_votes = await self._vote(
            ask, "plan-vote", self.plan_votes, request, "tot_plan_vote", plans
        )
        answer_prompt = with_text(request, fill(str(texts()["tot_answer"]), {"plan": plans[chosen]}))
        candidates = await gather_all(
            cot_then_extract(ask, f"answer-{i + 1}/", answer_prompt, item, self._settings(request, i))
            for i in range(self.answers)
        )
        reasonings = [reasoning for reasoning, _ in candidates]
        best, answer_votes = await self._vote(
            ask, "answer-vote", self.answer_votes, request, "tot_answer_vote", reasonings
        )
        extracted = candidates[best][1]
        trace = {
            "plans": len(plans),
            "plan_votes": plan_votes,
            "chosen_plan": chosen,
            "answer_votes": answer_votes,
            "candidates": [read(text) for _, text in candidates],
            "chosen_answer": best,
        }
        return Outcome(extracted, trace)


def sorted_ties(votes: list[int | None]) -> list[int | None]:
    """Votes ordered so that :func:`majority`'s first-cast tie rule picks the lowest-numbered choice."""
    return sorted(votes, key=lambda v: (v is None, v))
