"""A finished run folder read back for the report: configuration, items, stored answers, scores.

A run folder (``spatialbench run --out RUN``, a baseline run or a human run written by ``spatialbench
serve``) holds ``config.json`` and ``run.sqlite``. The report re-scores the stored answers with the run's
own extraction and MRA modes (a baseline is re-scored as ``spatialbench baseline`` scores it), so its
tables are the ones ``spatialbench score`` prints. The store is opened read-only; nothing is written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.errors import SpatialBenchError
from spatialbench.records.item import Item
from spatialbench.registry import UnknownNameError
from spatialbench.runs import RunConfig
from spatialbench.runs.baseline import baseline_name
from spatialbench.runs.plan import select_items
from spatialbench.runs.results import RunFolderError, store_rows
from spatialbench.scoring.baselines import BASELINES
from spatialbench.scoring.scorer import ScoreResult, score_items

HUMAN_PREFIX = "human:"
"""Model names of human evaluations (``human:NAME``), the papers' "Human Level" rows."""


class RunReadError(SpatialBenchError, ValueError):
    """A run folder that cannot be read; the message names the folder and the file or field."""


@dataclass(frozen=True)
class StoredAnswer:
    """The latest stored row of one item: status, answer text, the request as stored, latency (s)."""

    status: str
    response: str | None
    prompt: dict[str, Any]
    error: str | None = None
    latency_s: float | None = None


@dataclass(frozen=True)
class RunData:
    """One run as the report draws it.

    Attributes:
        path: the run folder. label: its row name (the folder name). config: the run's configuration.
        record: ``config.json`` as written (config, environment, back end, prompt fingerprint).
        spec: its benchmark. items: the items the run selected, in benchmark order.
        answers: item id → latest stored row (``ok`` rows win over older failed ones).
        result: the scores (same modes as the run). data: the benchmark path the items were read from.
    """

    path: Path
    label: str
    config: RunConfig
    record: dict[str, Any]
    spec: BenchmarkSpec
    items: list[Item]
    answers: dict[str, StoredAnswer]
    result: ScoreResult
    data: Path
    by_id: dict[str, Item] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """``baseline``, ``human``, ``blind`` or ``model`` (the leaderboard section of the run)."""
        name = self.config.model.name
        if baseline_name(name) is not None:
            return "baseline"
        if name.startswith(HUMAN_PREFIX):
            return "human"
        return "blind" if self.config.prompt.blind else "model"


def read_config(run: Path) -> tuple[RunConfig, dict[str, Any]]:
    """Return the run's :class:`RunConfig` and the whole ``config.json`` record.

    Raises:
        RunReadError: no or unreadable ``config.json``, or a ``config`` field that does not validate.
    """
    path = run / "config.json"
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        return RunConfig.model_validate(record["config"]), record
    except FileNotFoundError:
        raise RunReadError(f"{run}: not a run folder (no config.json)") from None
    except (json.JSONDecodeError, KeyError, TypeError, UnicodeError) as exc:
        raise RunReadError(f"{path}: unreadable run configuration ({type(exc).__name__}: {exc})") from None
    except ValueError as exc:  # pydantic ValidationError
        first = str(exc).splitlines()[:3]
        raise RunReadError(f"{path}: field 'config' does not validate: {' '.join(first)}") from None


def read_answers(run: Path) -> dict[str, StoredAnswer]:
    """Return item id → its latest stored row in ``run.sqlite`` (read-only); an ``ok`` row beats others.

    Raises:
        RunReadError: no ``run.sqlite`` or not a run store.
    """
    query = "SELECT item_id, status, response, prompt, error, latency_s FROM results ORDER BY finished_at"
    try:
        rows = store_rows(run, query)
    except (FileNotFoundError, RunFolderError) as exc:
        raise RunReadError(str(exc)) from None
    answers: dict[str, StoredAnswer] = {}
    for item_id, status, response, prompt, error, latency in rows:
        earlier = answers.get(item_id)
        if status != "ok" and earlier is not None and earlier.status == "ok":
            continue
        answers[item_id] = StoredAnswer(status, response, _prompt(prompt), error, latency)
    return answers


def _prompt(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _benchmark(folder: Path, name: str) -> BenchmarkSpec:
    try:
        return get_benchmark(name)
    except UnknownNameError as exc:
        raise RunReadError(f"{folder}: {exc}") from None


def check_benchmarks(run_paths: Sequence[str | Path]) -> None:
    """Check, from each ``config.json`` alone, that the runs name one registered benchmark.

    Raises:
        RunReadError: a run that cannot be read or names an unregistered benchmark, or runs of different
            benchmarks (one line naming every run and its benchmark).
    """
    named = {Path(p): read_config(Path(p))[0].data.benchmark for p in run_paths}
    for folder, name in named.items():
        _benchmark(folder, name)
    if len(set(named.values())) > 1:
        listing = ", ".join(f"{folder} ({name})" for folder, name in named.items())
        raise RunReadError(f"runs of different benchmarks: {listing}; report one benchmark at a time")


def load_run(run: str | Path, data: str | Path | None = None,
             exclude: frozenset[str] = frozenset()) -> RunData:
    """Read run folder ``run``; ``data`` replaces the benchmark path recorded in its configuration.

    ``exclude``: item ids left out of the run's selection (review flags, ``report --exclude``).

    Raises:
        RunReadError: the folder, its configuration, its store or its benchmark data cannot be read (the
            message names which).
    """
    folder = Path(run)
    config, record = read_config(folder)
    answers = read_answers(folder)
    spec = _benchmark(folder, config.data.benchmark)
    path = Path(data) if data is not None else Path(config.data.path)
    try:
        loaded = spec.load_items(path, **config.data.options)
        items = [i for i in select_items(loaded, config.data.ids, config.data.limit) if i.id not in exclude]
    except (ValueError, OSError) as exc:
        raise RunReadError(f"{folder}: benchmark data of the run ({path}) cannot be read: {exc}") from None
    result = _score(config, spec, items, answers)
    return RunData(folder, folder.name, config, record, spec, items, answers, result, path,
                   {item.id: item for item in items})


def _score(config: RunConfig, spec: BenchmarkSpec, items: list[Item],
           answers: dict[str, StoredAnswer]) -> ScoreResult:
    baseline = baseline_name(config.model.name)
    if baseline is not None:
        return BASELINES.get(baseline)(items, spec.scoring, mra=config.scoring.mra)
    responses = {i: a.response for i, a in answers.items() if a.status == "ok"}
    return score_items(items, responses, spec.scoring, extract=config.scoring.extract, mra=config.scoring.mra)
