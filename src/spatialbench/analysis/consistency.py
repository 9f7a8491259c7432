"""``spatialbench consistency``: whether a final answer follows from the model's own reasoning (App. D.3).

ReMindView-Bench Sec. 5.2 / App. D.3 / Table 9: the same model is sent the paper's request only: the query
images (the run's own frames, rebuilt from its recorded configuration: prompt builder, frames, size limit,
each with its frame name), then one text with the query (question and choices), its phases 1–3
(:mod:`spatialbench.analysis.phases`), its final answer (phase (4), else the option it chose, else
"(no answer)") and the Table 9 instruction (``judge/data/texts.json`` ``consistency``). Not sent: the
run's 4-phase system prompt and its "Your last line must match ^[ABCD]…" line, which would ask a model
that follows them for a reasoning path instead of a label. An answer with none of phases 1–3 is not sent
(counted ``no_phases``, as ``judge`` does). The reply must be one label, ``Consistent`` or
``Inconsistent`` (:func:`read_label`: case, punctuation and Markdown ignored, "not consistent" reads as
inconsistent; a reply with both or neither is invalid and asked once more). Greedy, resumable
(:mod:`spatialbench.analysis.asking`).

Table 3 layout: % of items labelled consistent among answers correct, incorrect and all; the document
is ``RUN/analysis/consistency.json`` (registered as analysis ``consistency``: :data:`ANALYSIS`), drawn as
bars beside the paper's rows.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from spatialbench.analysis.asking import Question, ask_all, failures, locked_store, outcome_counts
from spatialbench.analysis.judge.schema import JUDGED_PHASES
from spatialbench.analysis.judge.study import phase_texts, texts
from spatialbench.analysis.judge.views import first_failure
from spatialbench.analysis.phases import split
from spatialbench.analysis.registry import Analysis, AnalysisDocument, DrawnFigure
from spatialbench.analysis.stored import StoredAnswer, answered_items, correct_items, stored_answers
from spatialbench.benchmarks import get_benchmark
from spatialbench.media.errors import MediaError
from spatialbench.media.sampling import parse_strategy
from spatialbench.models.api import ApiSettings
from spatialbench.models.base import Backend
from spatialbench.models.resolve import load_backend
from spatialbench.models.retry import RetryPolicy
from spatialbench.prompting.templates import fill
from spatialbench.records.item import Item
from spatialbench.records.messages import GenerationSettings, ImagePart, Part, Request, TextPart
from spatialbench.records.progress import Progress, Tally
from spatialbench.runs.config import RunConfig
from spatialbench.runs.folder import RunFolder
from spatialbench.runs.runner import frame_cache
from spatialbench.scoring.render import Grid, Value, to_markdown

VERSION = 1
#: Table 3 of the paper: model → % consistent among correct, incorrect, all answers
TABLE_3 = {
    "Qwen2.5-VL-3B": [64.8, 32.5, 48.6],
    "Qwen2.5-VL-7B": [74.1, 41.7, 59.3],
    "Qwen2.5-VL-32B": [83.6, 54.2, 68.4],
}


_NEGATIONS = frozenset({"not", "no", "never", "isn", "isnt", "t"})


def read_label(text: str) -> str | None:
    """Return ``consistent`` / ``inconsistent`` when the reply holds exactly one label; never raises.

    A negated label reads as its opposite ("Not consistent", "isn't consistent" → inconsistent;
    "not inconsistent" → consistent); a reply naming both labels, or none, is None (invalid).
    """
    words = re.sub(r"[^a-z]+", " ", text.lower()).split() if isinstance(text, str) else []
    found = set()
    for k, word in enumerate(words):
        if word in ("consistent", "inconsistent"):
            negated = k > 0 and words[k - 1] in _NEGATIONS
            found.add(word if not negated else ({"consistent", "inconsistent"} - {word}).pop())
    return found.pop() if len(found) == 1 else None


def _validate(text: str) -> str | None:
    return None if read_label(text) else "the reply must be exactly one label: Consistent or Inconsistent"


def final_answer(answer: str, item: Item, extracted: object) -> str:
    """Return the answer shown to the model: phase (4), else the chosen option, else "(no answer)"."""
    phase4 = split(answer).phases.get(4)
    if phase4:
        return phase4
    chosen = [o for o in item.options if isinstance(extracted, str) and o.startswith(f"{extracted}.")]
    return chosen[0] if chosen else "(no answer)"


def query_text(item: Item) -> str:
    """Return the query as Table 9 shows it: the question, then its lettered choices one per line."""
    return "\n".join([item.question, *item.options])


class RunRequests:
    """The run's own requests, rebuilt from its recorded configuration (prompt builder, frames, sizes)."""

    def __init__(self, config: RunConfig) -> None:
        self.config = config
        self.builder = get_benchmark(config.data.benchmark).prompt_builder(config.prompt)
        self.cache = frame_cache(config)  # with the run's AKS scorer when its frames are aks:N
        self.strategy = parse_strategy(config.frame_strategy)

    def query_images(self, item: Item) -> tuple[Part, ...]:
        """Return the media parts of the run's request for ``item``: each image with its name label.

        Every part up to the last image (frame names and images; none in blind mode); the run's system
        prompt and the question text after the images are left out (Table 9 sends the query itself).

        Raises:
            MediaError: the item's media cannot be read. ValueError: the builder refuses the item.
        """
        parts = self.build(item).parts
        last = max((k for k, p in enumerate(parts) if isinstance(p, ImagePart)), default=-1)
        return parts[: last + 1]

    def build(self, item: Item) -> Request:
        """Return the request the run sent for ``item`` (no media in blind mode).

        Raises:
            MediaError: the item's media cannot be read. ValueError: the builder refuses the item.
        """
        size, blind = self.config.media.max_pixels, self.config.prompt.blind
        media = [] if blind else [self.cache.get(r, self.strategy, size, item.question) for r in item.media]
        return self.builder.build(item, media)


def consistency_questions(
    run: RunFolder, items: list[Item], answers: dict[str, StoredAnswer], max_new_tokens: int = 64
) -> tuple[list[Question], dict[str, int]]:
    """Return one consistency question per scored, answered item and the counts of items left out.

    Each request is Table 9's only (see the module docstring): no system prompt, the query images, then
    the filled instruction; greedy, ``max_new_tokens`` for the label. Counts: ``not_answered``,
    ``no_phases`` (none of phases 1–3: nothing to check, as ``judge``), ``unusable_media``, ``checked``.
    """
    requests = RunRequests(run.config)
    extracted = dict(zip(run.rows["id"], run.rows.get("extracted", [None] * len(run.rows)), strict=True))
    scored = correct_items(run)
    settings = GenerationSettings(temperature=0.0, max_new_tokens=max_new_tokens, seed=run.config.model.seed)
    pairs, unanswered = answered_items(items, answers, scored)
    counts = {"not_answered": unanswered, "no_phases": 0, "unusable_media": 0}
    questions = []
    for item, answer in pairs:
        phases, absent = phase_texts(answer.text)
        if len(absent) == len(JUDGED_PHASES):
            counts["no_phases"] += 1
            continue
        try:
            images = requests.query_images(item)
        except (MediaError, ValueError):
            counts["unusable_media"] += 1
            continue
        values = {
            **phases,
            "query": query_text(item),
            "answer": final_answer(answer.text, item, extracted.get(item.id)),
        }
        text = fill(texts()["consistency"], values)
        questions.append(Question(item.id, Request(parts=(*images, TextPart(text)), settings=settings)))
    counts["checked"] = len(questions)
    return questions, counts


def consistency_table(labels: dict[str, str | None], correct: dict[str, bool]) -> dict[str, Any]:
    """Return group (``correct``, ``incorrect``, ``all``) → {"percent", "consistent", "items"} (Table 3)."""
    groups = {
        "correct": [i for i, ok in correct.items() if ok and labels.get(i)],
        "incorrect": [i for i, ok in correct.items() if not ok and labels.get(i)],
        "all": [i for i in correct if labels.get(i)],
    }
    table = {}
    for group, items in groups.items():
        consistent = sum(labels[i] == "consistent" for i in items)
        table[group] = {
            "percent": 100 * consistent / len(items) if items else None,
            "consistent": consistent,
            "items": len(items),
        }
    return table


async def consistency_study(
    run: RunFolder,
    items: list[Item],
    answers: dict[str, StoredAnswer],
    model: str,
    backend: Backend,
    concurrency: int = 8,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Ask ``model`` the consistency check for every item; return the ``consistency.json`` fields.

    ``progress``: called with (items checked, items to check).

    Raises:
        RunLockedError: another process checks this run with this model (nothing is sent).
        RunSetupError: the store is damaged or holds another model's answers.
    """
    questions, counts = consistency_questions(run, items, answers)
    with locked_store(run.path, "consistency", model, backend, run.benchmark) as store:
        retry = texts()["consistency_retry"]
        asked = await ask_all(backend, store, model, questions, _validate, retry, concurrency,
                              Tally(len(questions), progress))
    labels = {a.item_id: read_label(a.text) if a.text else None for a in asked.answers}
    return {
        "run": run.name,
        "items": {**counts, **outcome_counts(asked)},
        "table": consistency_table(labels, correct_items(run)),
        "labels": labels,
        "failures": failures(asked.answers),
        "reference": {
            "table": "ReMindView-Bench Table 3",
            "columns": ["correct", "incorrect", "all"],
            "rows": TABLE_3,
        },
    }


class ConsistencyParams(BaseModel):
    """Parameters of ``consistency``: the model asked (None: the run's own), the turn checked, transport.

    ``turn``: check this strategy turn's text (``cot``) instead of the answer; ``concurrency``: requests in
    flight; ``timeout_s``: seconds per request attempt; ``max_attempts``: attempts per request (retries of
    a transient failure included).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str | None = None
    turn: str | None = None
    concurrency: int = Field(default=8, ge=1)
    timeout_s: float = Field(default=120.0, gt=0)
    max_attempts: int = Field(default=RetryPolicy().max_attempts, ge=1)


GROUPS = ("correct", "incorrect", "all")


class ConsistencyAnalysis(Analysis):
    """``consistency``: does each final answer follow from the model's own reasoning (Table 3)."""

    name = "consistency"
    description = "the model checks each final answer against its own reasoning (ReMindView-Bench Table 3)"
    title = "Self-consistency"
    version = VERSION
    Params = ConsistencyParams
    benchmarks = ("remindview",)
    section = "App. D.3"

    async def acompute(
        self, run: RunFolder, params: BaseModel, progress: Progress | None = None
    ) -> AnalysisDocument:
        """Ask the model the check for every scored, answered item (:func:`consistency_study`, ``progress``).

        Raises:
            RunFolderError: not a scored run, unreadable store, data or configuration.
            UnknownNameError / BackendError: a model that cannot be built. RunSetupError: a damaged store.
        """
        assert isinstance(params, ConsistencyParams)
        items = run.items()
        answers = stored_answers(run, params.turn)
        name = params.model or run.model
        api = ApiSettings(concurrency=params.concurrency, timeout_s=params.timeout_s,
                          retry=RetryPolicy(max_attempts=params.max_attempts))
        backend = load_backend(name, api=api, seed=run.config.model.seed)
        fields = await consistency_study(run, items, answers, name, backend, params.concurrency, progress)
        return self.document(**fields)

    def tables(self, doc: dict[str, Any]) -> list[Grid]:
        """One grid: % consistent, correct / incorrect / all, the item counts, then the paper's rows."""
        table = doc["table"]
        columns = [g for g in GROUPS if g in table]
        rows: list[tuple[str, tuple[Value, ...]]] = [
            ("this run", tuple(table[g]["percent"] for g in columns)),
            ("items", tuple(table[g]["items"] for g in columns)),
        ]
        rows += [(f"{m} (Table 3)", tuple(v)) for m, v in doc.get("reference", {}).get("rows", {}).items()]
        return [Grid(tuple(columns), tuple(rows), "Consistent answers (%)")]

    def figures(self, doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
        """Bars of % consistent, correct / incorrect / all (``folder/consistency.png``, ``.svg``)."""
        from spatialbench import charts  # matplotlib only when drawing

        table = doc["table"]
        columns = [g for g in GROUPS if g in table]
        ours = ("this run", [table[g]["percent"] for g in columns])
        paths = charts.grouped_bars(columns, [ours], [], "answers consistent with their reasoning",
                                    folder / self.name, ylabel="consistent (%)")
        return [DrawnFigure("Consistency (Table 3)", tuple(paths))]


def summary_text(doc: dict[str, Any]) -> str:
    """Return the Table 3 layout of a ``consistency.json`` document (run, items, the paper) and counts."""
    table = doc["table"]
    rows: list[tuple[str, tuple[Value, ...]]] = [
        (str(doc["run"]), tuple(table[g]["percent"] for g in GROUPS)),
        ("items", tuple(table[g]["items"] for g in GROUPS)),
        *((f"{model} (Table 3)", tuple(row)) for model, row in doc["reference"]["rows"].items()),
    ]
    lines = to_markdown(Grid(("correct (%)", "incorrect (%)", "overall (%)"), tuple(rows)))
    return "\n".join([*lines, "", counts_line(doc)]) + "\n"


def counts_line(doc: dict[str, Any]) -> str:
    """Return ``items: ...`` (left out, valid, failed, requests sent with retries) and the first failure."""
    counts = ", ".join(f"{k} {v}" for k, v in sorted(doc["items"].items()))
    return "items: " + counts + first_failure(doc.get("failures", []))


ANALYSIS = ConsistencyAnalysis()
