"""Human-level evaluation stored exactly like a model run (the papers' "Human Level" rows).

A person answers a sample of items in the browser, with the benchmark's question and options and the
whole video (VSI-Bench Fig. 6 "Human Level" on the tiny set; MMSI-Video-Bench and ReMindView-Bench human
rows). The run folder ``WORKDIR/human-NAME`` holds what a model run holds: ``config.json`` (model
``human:NAME``; ``data.ids`` = the sample, so ``score`` and ``report`` select the same items),
``run.sqlite`` (one ``ok`` row per answer; ``latency_s`` = seconds from the server showing the item to
the answer, measured by the server)
and, rewritten after every answer, ``scores.json`` / ``items.csv`` / ``scores.md`` (the benchmark's
default extraction reads a typed letter or number like any response). One run's answers are stored and
scored one at a time (the run folder's lock, :mod:`spatialbench.web.locks`): parallel answers all land.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Sequence
from pathlib import Path

import numpy as np

from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.records.item import AnswerKind, Item
from spatialbench.records.messages import Response
from spatialbench.runs import STORE_NAME, RunConfig, RunStore
from spatialbench.runs.folder import HUMAN_PREFIX, score_answered
from spatialbench.runs.record import record_run
from spatialbench.scoring.output import write_scores
from spatialbench.web.locks import lock_for

NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
PROMPT = {"human": True, "shown": "whole video(s), question and options as in the benchmark"}


def sample_ids(items: Sequence[Item], size: int, seed: int, tasks: Collection[str] = ()) -> list[str]:
    """Ids of ``size`` items drawn without replacement (``numpy`` generator from ``seed``), benchmark order.

    ``tasks``: draw from the items of these tasks (their union); none given: from every item.

    Raises:
        ValueError: ``size`` < 1 (the message names the tasks given), or no item of ``tasks``.
    """
    named = f" of task {' or '.join(tasks)}" if tasks else ""
    if size < 1:
        raise ValueError(f"cannot start a human evaluation of {size} item(s){named}: "
                         "the sample size must be ≥ 1")
    pool = [i for i in items if not tasks or i.task in tasks]
    if not pool:
        raise ValueError(f"cannot start a human evaluation{named}: no item{named} in the benchmark")
    chosen = set(np.random.default_rng(seed).choice(len(pool), size=min(size, len(pool)), replace=False))
    return [item.id for k, item in enumerate(pool) if k in chosen]


def chosen_ids(items: Sequence[Item], text: str) -> list[str]:
    """Return the ids of a comma- or space-separated list, in benchmark order.

    Raises:
        ValueError: an id that is not an item (the first few are named).
    """
    wanted = {part for part in text.replace(",", " ").split() if part}
    unknown = sorted(wanted - {item.id for item in items})
    if unknown:
        raise ValueError(f"{len(unknown)} id(s) not in the benchmark: {', '.join(unknown[:5])}")
    return [item.id for item in items if item.id in wanted]


def run_folder(workdir: Path, name: str) -> Path:
    """``WORKDIR/human-NAME``.

    Raises:
        ValueError: a name other than 1–40 of ``A-Za-z0-9_-``.
    """
    if not NAME.match(name):
        raise ValueError("a name is 1-40 letters, digits, '_' or '-'")
    return workdir / f"human-{name}"


def start(workdir: Path, name: str, spec: BenchmarkSpec, data: Path, ids: list[str]) -> RunConfig:
    """Create (or re-open with its own sample) the human run of ``name``; return its configuration."""
    folder = run_folder(workdir, name)
    existing = folder / "config.json"
    if existing.is_file():
        return RunConfig.model_validate_json(_config_json(existing))
    config = RunConfig.model_validate({
        "data": {"benchmark": spec.name, "path": str(data), "ids": ids},
        "model": {"name": f"{HUMAN_PREFIX}{name}"},
        "out": str(folder),
    })
    store = RunStore(folder / STORE_NAME, [])
    try:
        record_run(store, config, {"human": name, "interface": "spatialbench serve"}, PROMPT, [])
    finally:
        store.close()
    return config


def _config_json(path: Path) -> str:
    return json.dumps(json.loads(path.read_text(encoding="utf-8"))["config"])


def answered(config: RunConfig) -> set[str]:
    """Ids the person has answered."""
    store = RunStore(Path(config.out) / STORE_NAME, [])
    try:
        return {r.item_id for r in store.results() if r.status == "ok"}
    finally:
        store.close()


#: form input patterns (HTML ``pattern``): a count, a measure (no sign but ``+``, a decimal, an exponent)
COUNT_PATTERN = r"\s*\+?\d+\s*"
MEASURE_PATTERN = r"\s*\+?(\d+\.?\d*|\.\d+)([eE](\+|-)?\d+)?\s*"
_HOW_MANY = re.compile(r"\bhow many\b", re.IGNORECASE)


def is_count(item: Item) -> bool:
    """Whether a numerical item asks for a count (a counting task, or "How many ...")."""
    return item.answer_kind is AnswerKind.NUMERICAL and ("count" in item.task or bool(
        _HOW_MANY.search(item.question)))


def refusal(item: Item, answer: str) -> str | None:
    """Return why ``answer`` is no answer of ``item``'s kind (None when it is one).

    A count takes a whole number of 0 or more (``3``; not ``-3``, ``2.5``); another numerical item a number
    of 0 or more (``2``, ``2.5``, ``1e3``; not ``about two``, ``-1.2``: MRA's ground truths are positive);
    a multiple-choice item one of its option letters.
    """
    text = answer.strip()
    if item.answer_kind is AnswerKind.NUMERICAL:
        try:
            value = float(text)
        except ValueError:
            return f"{text!r} is not a number: type digits only, e.g. 2 or 3.5"
        if not math.isfinite(value):
            return f"{text!r} is not a finite number"
        if is_count(item) and not re.fullmatch(COUNT_PATTERN, text):
            return f"{text!r} is not a count: type a whole number of 0 or more, e.g. 3"
        return f"{text!r} is not a distance or size: type 0 or more, e.g. 2 or 3.5" if value < 0 else None
    letters = [o.split(".")[0].strip() for o in item.options or ()]
    if letters and text not in letters:
        return f"{text!r} is not one of the options: choose {', '.join(letters)}"
    return None


def record(config: RunConfig, spec: BenchmarkSpec, items: Sequence[Item], item: Item, answer: str,
           seconds: float | None) -> None:
    """Store one answer (an empty answer is stored ``empty``, shown again), then re-score the run.

    ``items`` are the benchmark's items; the run's sample (``config.data.ids``) is scored. Holds the run
    folder's lock throughout.
    """
    with lock_for(Path(config.out)):
        _record(config, spec, items, item, answer, seconds)


def _record(config: RunConfig, spec: BenchmarkSpec, items: Sequence[Item], item: Item, answer: str,
            seconds: float | None) -> None:
    name = config.model.name
    store = RunStore(Path(config.out) / STORE_NAME, [])
    try:
        store.put(f"{name}:{item.id}", item.id, PROMPT, Response(text=answer.strip()),
                  latency_s=None if seconds is None else max(seconds, 0.0))
        responses = {r.item_id: r.response for r in store.results() if r.status == "ok"}
    finally:
        store.close()
    wanted = set(config.data.ids or ())
    sample = [i for i in items if i.id in wanted]
    result = score_answered(sample, responses, spec.scoring, extract=config.scoring.extract,
                            mra=config.scoring.mra)
    write_scores(result, config.out)
