"""``spatialbench run --model chance-random``: a baseline run, scored as ``spatialbench baseline`` scores it.

A baseline needs no media and no model: its answers and score come from the items alone
(:data:`spatialbench.scoring.baselines.BASELINES`). The run still holds the output folder, records its
configuration and stores one row per item (the baseline's answer; ``not_applicable`` for items it has no
chance level for, e.g. chance-random on numerical items), so the folder reads like any run's.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from spatialbench.models.base import BACKENDS
from spatialbench.records.item import Item
from spatialbench.records.messages import Response
from spatialbench.records.redaction import secret_values
from spatialbench.registry import unknown_name
from spatialbench.runs.config import RunConfig
from spatialbench.runs.keys import request_key
from spatialbench.runs.lock import run_lock
from spatialbench.runs.record import record_run
from spatialbench.runs.store import RunStore
from spatialbench.runs.summary import STORE_NAME, RunSummary
from spatialbench.scoring.baselines import BASELINES
from spatialbench.scoring.output import write_scores
from spatialbench.scoring.scorer import ScoreResult

if TYPE_CHECKING:  # prepare imports this module (baseline_name)
    from spatialbench.runs.prepare import PreparedRun

#: the provider of a bare hosted model name, by how the name starts (``gpt-4o`` → ``openai:gpt-4o``)
PROVIDER_OF_PREFIX = {"gpt-": "openai", "o1": "openai", "o3": "openai", "o4": "openai",
                      "claude-": "anthropic", "gemini-": "gemini"}


def check_model_name(model: str) -> None:
    """Refuse a model name whose ``provider:`` part names neither a back end nor a baseline.

    Raises:
        UnknownNameError: the message suggests near misses among back ends and baselines together
            (``chance-randon`` → ``chance-random``), a bare hosted model's full name (``gpt-4o`` →
            ``openai:gpt-4o``), and lists every known name.
    """
    provider = model.partition(":")[0]
    if provider in BACKENDS or provider in BASELINES:
        return
    hints = [f"{p}:{model}" for prefix, p in PROVIDER_OF_PREFIX.items() if model.startswith(prefix)]
    raise unknown_name("model (back end or baseline)", provider, [*BACKENDS, *BASELINES], hints)


def run_baseline(prepared: PreparedRun) -> RunSummary:
    """Score the prepared run's baseline on its selected items; store and write as a run.

    Raises:
        RunLockedError: another run holds the folder. RunStoreError: a store of another run.
    """
    config, selected = prepared.config, list(prepared.selected)
    name = prepared.baseline or config.model.name
    out = Path(config.out)
    with run_lock(out):
        result = BASELINES.get(name)(selected, prepared.spec.scoring, mra=config.scoring.mra)
        counts = _store(config, name, selected, result)
        write_scores(result, out)
    already = counts.pop("already", 0)
    errors = [str(e) for e in prepared.loaded.errors]
    return RunSummary(len(selected), already, counts, {}, errors, score=result)


def _store(config: RunConfig, name: str, items: list[Item], result: ScoreResult) -> dict[str, int]:
    """Store one row per item not yet stored; count ``ok``, ``not_applicable`` and ``already``."""
    prompt = {"baseline": name}
    answers = {str(r.id): str(r.prediction or r.extracted) for r in result.rows.itertuples()}
    return store_answers(config, prompt, prompt, items, answers)


def store_answers(
    config: RunConfig, backend: dict[str, Any], prompt: dict[str, Any], items: list[Item],
    answers: dict[str, str],
) -> dict[str, int]:
    """Record the run (``config.json``) and store ``answers`` (item id → text) as its responses.

    Answers that need no model: a baseline's, or those another tool wrote (``spatialbench import``). One
    row per item not yet stored; an item without an answer gets an empty ``not_applicable`` row.

    Returns:
        counts of ``ok``, ``empty``, ``failed``, ``already`` and (when any) ``not_applicable``.

    Raises:
        RunStoreError: a store of another run. OSError: ``config.json`` cannot be written.
    """
    secrets = secret_values()
    store = RunStore(Path(config.out) / STORE_NAME, secrets)
    counts = {"ok": 0, "empty": 0, "failed": 0, "already": 0}
    try:
        record_run(store, config, backend, prompt, secrets)
        done = store.done_keys()
        settings = config.model.generation(None)
        for item in items:
            key = request_key(item, [], frames="", max_pixels=None, prompt=prompt, settings=settings,
                              model=config.model.name)
            if key in done:
                counts["already"] += 1
            elif item.id in answers:
                counts["ok"] += 1
                store.put(key, item.id, prompt, Response(text=answers[item.id]))
            else:
                counts["not_applicable"] = counts.get("not_applicable", 0) + 1
                store.put(key, item.id, prompt, Response(text="", raw={"no_answer_expected": True}))
    finally:
        store.close()
    return counts
