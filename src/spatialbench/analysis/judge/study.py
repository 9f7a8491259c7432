"""``spatialbench judge``: every judge scores each item's reasoning phases 1–3 (ReMindView-Bench App. D.1).

For each scored item with a stored answer and a view graph (:mod:`~spatialbench.analysis.judge.truth`),
the judge gets the Table 8 instruction (``data/texts.json``: role, ground-truth metadata, the item's
question, the answer's phases 1–3 split by :mod:`spatialbench.analysis.phases`, evaluation rules, our JSON
format of :mod:`~spatialbench.analysis.judge.schema`). A missing phase is sent as "(phase missing from the
response)", counted, and never scored (its judge score is dropped); an answer without phases 1–3 is not
sent. Requests are greedy (temperature 0), resumable, retried once on an invalid reply
(:mod:`spatialbench.analysis.asking`). Judges are averaged and their agreement measured
(:mod:`~spatialbench.analysis.judge.agreement`); the document is ``RUN/analysis/judge.json``, drawn by
:mod:`~spatialbench.analysis.judge.views` (registered as analysis ``judge``: :data:`ANALYSIS`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from spatialbench.analysis.asking import (
    Answer,
    Asked,
    Question,
    ask_all,
    endpoint_label,
    failures,
    locked_store,
    outcome_counts,
)
from spatialbench.analysis.judge.agreement import (
    TABLE_2,
    Scores,
    item_means,
    krippendorff_alpha,
    pairwise_correlation,
    phase_table,
)
from spatialbench.analysis.judge.schema import JUDGED_PHASES, parse_judgement
from spatialbench.analysis.judge.truth import load_view_graph, metadata_sections
from spatialbench.analysis.judge.views import JudgeViews
from spatialbench.analysis.phases import split
from spatialbench.analysis.registry import AnalysisDocument
from spatialbench.analysis.stored import StoredAnswer, answered_items, correct_items, stored_answers
from spatialbench.models.api import ApiSettings
from spatialbench.models.base import Backend
from spatialbench.models.resolve import load_backend
from spatialbench.models.retry import RetryPolicy
from spatialbench.prompting.templates import fill, read_json
from spatialbench.records.item import Item
from spatialbench.records.messages import GenerationSettings, Request, TextPart
from spatialbench.records.progress import Progress, Tally
from spatialbench.runs.folder import RunFolder
from spatialbench.runs.plan import data_root

VERSION = 1


def texts() -> dict[str, str]:
    """Return the judge and consistency instruction texts (``data/texts.json``)."""
    return dict(read_json(__package__, "data/texts.json"))


def phase_texts(answer: str) -> tuple[dict[str, str], tuple[int, ...]]:
    """Return ``phase1``…``phase3`` texts of an answer (missing ones marked) and the missing phase numbers."""
    phases = split(answer)
    marker = texts()["missing_phase"]
    values = {f"phase{k}": phases.phases.get(k) or marker for k in JUDGED_PHASES}
    return values, tuple(k for k in phases.missing if k in JUDGED_PHASES)


def judge_request(item: Item, answer: str, graph: dict[str, Any], max_new_tokens: int) -> Request:
    """Return the judge's request for one item (Table 8 instruction filled in).

    Raises:
        ValueError, TypeError, AttributeError: the view graph is malformed.
    """
    words = texts()
    values = {
        **metadata_sections(graph),
        **phase_texts(answer)[0],
        "question": item.question,
        "schema": words["judge_schema"],
    }
    settings = GenerationSettings(temperature=0.0, max_new_tokens=max_new_tokens, seed=0)
    return Request(
        parts=(TextPart(fill(words["judge_user"], values)),), system=words["judge_system"], settings=settings
    )


def judge_questions(
    items: list[Item],
    answers: dict[str, StoredAnswer],
    scored: dict[str, bool],
    data_root: Path,
    max_new_tokens: int = 1024,
) -> tuple[list[Question], dict[str, int], dict[str, tuple[int, ...]]]:
    """Return the judges' questions, counts of items left out or missing phases, and missing phases.

    The third value maps item id → its phases (of 1–3) missing from the answer: recorded, never scored.
    An answer with none of phases 1–3 is not sent (counted ``no_phases``).
    """
    pairs, unanswered = answered_items(items, answers, scored)
    counts: Counter[str] = Counter(not_answered=unanswered)
    questions, missing = [], {}
    for item, answer in pairs:
        graph = load_view_graph(item, data_root)
        if graph is None:
            counts["no_ground_truth"] += 1
            continue
        absent = phase_texts(answer.text)[1]
        if len(absent) == len(JUDGED_PHASES):
            counts["no_phases"] += 1
            continue
        try:
            request = judge_request(item, answer.text, graph, max_new_tokens)
        except (ValueError, TypeError, AttributeError):
            counts["bad_ground_truth"] += 1
            continue
        counts.update(f"missing_phase_{k}" for k in absent)
        missing[item.id] = absent
        questions.append(Question(item.id, request))
    counts["judged"] = len(questions)
    return questions, dict(counts), missing


def _validate(text: str) -> str | None:
    return parse_judgement(text).error


def _scores(answers: list[Answer], missing: dict[str, tuple[int, ...]]) -> dict[str, dict[int, float | None]]:
    out: dict[str, dict[int, float | None]] = {}
    for answer in answers:
        judgement = parse_judgement(answer.text).judgement if answer.text is not None else None
        percents = judgement.percents() if judgement else dict.fromkeys(JUDGED_PHASES)
        out[answer.item_id] = {k: None if k in missing[answer.item_id] else v for k, v in percents.items()}
    return out


async def _judge(
    run: RunFolder,
    judges: dict[str, Backend],
    questions: list[Question],
    concurrency: int,
    progress: Progress | None,
) -> dict[str, Asked]:
    """Every judge asks every question; each judge's store is locked before any judge sends."""
    retry = texts()["judge_retry"]
    with ExitStack() as stack:
        stores = {name: stack.enter_context(locked_store(run.path, "judge", name, backend, run.benchmark))
                  for name, backend in judges.items()}
        tally = Tally(len(questions) * len(judges), progress)
        results = await asyncio.gather(
            *(ask_all(backend, stores[name], name, questions, _validate, retry, concurrency, tally)
              for name, backend in judges.items()))
    return dict(zip(judges, results, strict=True))


def _per_judge(outcomes: dict[str, Asked], scores: Scores, correct: dict[str, bool]) -> dict[str, Any]:
    out = {}
    for name, asked in outcomes.items():
        table = phase_table(scores[name], correct)
        out[name] = {**outcome_counts(asked), "table": table, "failures": failures(asked.answers)}
    return out


async def judge_study(
    run: RunFolder,
    items: list[Item],
    answers: dict[str, StoredAnswer],
    judges: dict[str, Backend],
    data_root: Path,
    concurrency: int = 8,
    max_new_tokens: int = 1024,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Judge every item with every judge and return the ``judge.json`` fields (module docstring).

    ``judges``: model name → its back end. Judges are recorded by
    :func:`~spatialbench.analysis.asking.endpoint_label` (identity and a hash of the full name, URL included).
    ``progress``: called with (judgements done, items judged × judges).

    Raises:
        RunLockedError: another process judges this run with one of these judges (nothing is sent).
        RunSetupError: a judge's store is damaged or holds another model's answers.
    """
    correct = correct_items(run)
    questions, counts, missing = judge_questions(items, answers, correct, data_root, max_new_tokens)
    labelled = {endpoint_label(name): backend for name, backend in judges.items()}
    outcomes = await _judge(run, labelled, questions, concurrency, progress)
    scores: Scores = {name: _scores(asked.answers, missing) for name, asked in outcomes.items()}
    return {
        "run": run.name,
        "judges": list(scores),
        "items": counts,
        "table": phase_table(item_means(scores), correct),
        "per_judge": _per_judge(outcomes, scores, correct),
        "agreement": {
            "level": "interval",
            "krippendorff_alpha": krippendorff_alpha(scores),
            "pairwise": pairwise_correlation(scores),
        },
        "reference": {"table": "ReMindView-Bench Table 2", "rows": TABLE_2},
        "scores": {
            judge: {i: {str(k): v for k, v in s.items()} for i, s in per.items()}
            for judge, per in scores.items()
        },
    }


class JudgeParams(BaseModel):
    """Parameters of ``judge``: the judge models (at least one, each once), the turn judged, transport.

    ``turn``: judge this strategy turn's text (``cot``) instead of the answer; ``concurrency``: requests in
    flight per judge; ``timeout_s``: seconds per request attempt; ``max_new_tokens``: a judge's reply budget;
    ``max_attempts``: attempts per request (retries of a transient failure included).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    judges: tuple[str, ...] = Field(min_length=1)
    turn: str | None = None
    concurrency: int = Field(default=8, ge=1)
    timeout_s: float = Field(default=120.0, gt=0)
    max_attempts: int = Field(default=RetryPolicy().max_attempts, ge=1)
    max_new_tokens: int = Field(default=1024, ge=1)


class JudgeAnalysis(JudgeViews):
    """``judge``: LLM judges score reasoning phases 1-3 (Table 2); sends requests, so async only."""

    name = "judge"
    description = "LLM judges score each answer's reasoning phases 1-3 (ReMindView-Bench Table 2)"
    version = VERSION
    Params = JudgeParams
    benchmarks = ("remindview",)
    section = "App. D.1"

    async def acompute(
        self, run: RunFolder, params: BaseModel, progress: Progress | None = None
    ) -> AnalysisDocument:
        """Judge the run's answers with every judge (:func:`judge_study`; ``progress`` per judgement).

        Raises:
            RunFolderError: not a scored run, unreadable store or data. ValueError: a judge given twice.
            UnknownNameError / BackendError: a judge that cannot be built. RunSetupError: a damaged store.
        """
        assert isinstance(params, JudgeParams)
        items = run.items()
        answers = stored_answers(run, params.turn)
        if len(set(params.judges)) < len(params.judges):
            raise ValueError("the same --judge is given twice: " + ", ".join(params.judges))
        api = ApiSettings(concurrency=params.concurrency, timeout_s=params.timeout_s,
                          retry=RetryPolicy(max_attempts=params.max_attempts))
        backends = {name: load_backend(name, api=api, seed=0) for name in params.judges}
        fields = await judge_study(run, items, answers, backends, data_root(str(run.data_path)),
                                   params.concurrency, params.max_new_tokens, progress)
        return self.document(**fields)


ANALYSIS = JudgeAnalysis()
