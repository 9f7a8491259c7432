"""Iterative Bias Pruning (IBP; Brown et al., Sec. 4.1, Algorithm 1): re-diagnose, remove the most biased.

No official IBP code is published: the official repository (vision-x-nyu/test-set-training, every branch
and commit of the stored snapshot, last ef47fa7) has an "IBP" README section reading "TODO"; its only
pruning script, ``debias_vsi_clean.py``, is a single-pass per-type filter with hand-tuned heuristic scores
(no forest, no re-diagnosis) whose output ``data/removed_ids.txt`` is the released VSI-Bench-Debiased
removal list. This module therefore follows the algorithm as the paper writes it (:data:`PROCEDURE`).

Bias of an item: multiple choice s(x) - 1/options (above chance), numbers s(x) (MRA of the text-only
prediction). The budget is split into groups pruned on their own (global, per format, per type:
:mod:`.allocation`); in a group each iteration removes the top ``batch_size`` by ``(-round(bias, 12), id)``
while every question type keeps at least ``floor`` items; it stops at the group's budget, when nothing is
eligible, or when the highest bias is at or below ``stop_below`` (early stop). A matched random-removal
control (same count per type, 10 seeds by default) is scored the same way: the paper reports that at
B = 1000 its automated pruning did no better than random removal (gap 12.36 vs 12.20), so the control is
part of every result that removed something (with no removal it would only re-score the same table, so it
is skipped and :attr:`Pruning.no_control` says why; ``control_seeds=0`` skips it too).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from spatialbench.analysis.shortcuts.allocation import BudgetError, Group, plan_groups, question_types
from spatialbench.analysis.shortcuts.forest import stress_test
from spatialbench.analysis.shortcuts.table import order_digest, question_table
from spatialbench.records.progress import Progress, Tally

#: ``ComputeSampleBiasScores`` of Algorithm 1: the remaining rows -> s(x) per id.
Scorer = Callable[[pd.DataFrame], Mapping[str, float]]

#: Why no random-removal control ran (:attr:`Pruning.no_control`).
NO_REMOVAL = "nothing was removed, so random removal of as many would only re-score the same items"
NO_SEEDS = "control_seeds is 0: no random-removal control ran"

#: Where the procedure comes from (``summary.json``'s ``procedure``).
PROCEDURE = (
    "Algorithm 1 / Sec. 4.1 (Iterative Bias Pruning) of Brown et al., as written in the paper (its draft: "
    "docs/draft.tex of vision-x-nyu/test-set-training, branch meta_nov25, commit ef47fa7): no official IBP "
    "code is published (the repository's README section 'IBP' reads 'TODO'), so this is not a port"
)


@dataclass(frozen=True)
class Pruning:
    """The result of IBP.

    ``removed`` in removal order, ``kept`` sorted as the table, ``groups``: per group ``{group, n,
    budget, removed, stop_reason, iterations}``, each iteration ``{size_before, removed, max_bias,
    mean_bias}`` (bias at its start); ``before``/``after`` overall TsT score (percent); ``control``: the
    random-removal scores per seed, empty when none ran, and then ``no_control`` says why (else None).
    """

    removed: list[str]
    kept: list[str]
    groups: list[dict[str, Any]]
    before: float
    after: float
    control: list[float]
    settings: dict[str, Any]
    no_control: str | None = None


def _bias(table: pd.DataFrame, scores: dict[str, float]) -> pd.Series:
    s = table["id"].map(scores)
    chance = np.where(table["format"] == "mc", 1.0 / table["options"].map(lambda o: max(len(o), 1)), 0.0)
    return s - chance


def select_batch(table: pd.DataFrame, bias: pd.Series, size: int, floor: int) -> list[str]:
    """Up to ``size`` ids by ``(-round(bias, 12), id)``, each question type keeping more than ``floor``.

    Ids tie-break in the table's order (numeric ids numerically, as the official integer ids sort).
    """
    ranked = table.assign(_key=-bias.round(12), _order=np.arange(len(table)), _type=question_types(table))
    ranked = ranked.dropna(subset=["_key"]).sort_values(["_key", "_order"], kind="mergesort")
    left, chosen = Counter(question_types(table)), list[str]()
    for identifier, kind in zip(ranked["id"], ranked["_type"], strict=True):
        if len(chosen) == size:
            break
        if left[kind] > floor:
            chosen.append(identifier)
            left[kind] -= 1
    return chosen


def _forest(folds: str, seed: int) -> Scorer:
    """Return the default diagnosis: one stress-test (TsT-RF) of the remaining rows."""
    return lambda table: stress_test(table, folds, seed=seed).items


def _prune(
    table: pd.DataFrame, budget: int, batch_size: int, floor: int, stop_below: float | None, scorer: Scorer,
    tally: Tally,
) -> tuple[pd.DataFrame, list[str], list[dict[str, float]], str]:
    """Run one group's IBP iterations (a diagnosis each): kept, removed, iterations, why it stopped."""
    removed, iterations, reason = list[str](), list[dict[str, float]](), "budget"
    while len(removed) < budget:
        scores = dict(scorer(table))
        tally.step()
        bias = _bias(table, scores)
        top = float(bias.max()) if bias.notna().any() else float("nan")
        if stop_below is not None and not top > stop_below:
            reason = "early_stop"
            break
        batch = select_batch(table, bias, min(batch_size, budget - len(removed)), floor)
        if not batch:
            reason = "no_candidates"
            break
        iterations.append({"size_before": len(table), "removed": len(batch), "max_bias": top,
                           "mean_bias": float(bias.mean())})
        removed += batch
        table = table[~table["id"].isin(batch)].reset_index(drop=True)
    return table, removed, iterations, reason


def _score(table: pd.DataFrame, folds: str, seed: int) -> float:
    return stress_test(table, folds, seed=seed).overall[0]


def _control(
    table: pd.DataFrame, removed: list[str], folds: str, seed: int, seeds: int, tally: Tally
) -> list[float]:
    kinds = question_types(table)
    per_type = Counter(kinds[table["id"].isin(removed)])
    scores = []
    for number in tally.each(range(seeds)):
        rng = np.random.default_rng(number)
        drop: list[str] = []
        for kind, count in sorted(per_type.items()):
            ids = table.loc[kinds == kind, "id"].to_numpy()
            drop += [str(i) for i in rng.choice(ids, size=count, replace=False)]
        scores.append(_score(table[~table["id"].isin(drop)].reset_index(drop=True), folds, seed))
    return scores


def _groups(
    full: pd.DataFrame, groups: list[Group], options: dict[str, Any], scorer: Scorer, tally: Tally
) -> tuple[list[str], list[dict[str, Any]]]:
    """Prune each group on its own; return the ids removed (group after group) and each group's record."""
    removed, records = list[str](), list[dict[str, Any]]()
    loop = {k: options[k] for k in ("batch_size", "floor", "stop_below")}
    for group in groups:
        rows = full[full["id"].astype(str).isin(group.ids)].reset_index(drop=True)
        _, gone, iterations, reason = _prune(rows, group.budget, **loop, scorer=scorer, tally=tally)
        removed += gone
        records.append({"group": group.name, "n": len(rows), "budget": group.budget, "removed": len(gone),
                        "stop_reason": reason, "iterations": iterations})
    return removed, records


def _settings(
    allocation: dict[str, Any], options: dict[str, Any], control_seeds: int, full: pd.DataFrame,
    scorer: Scorer | None,
) -> dict[str, Any]:
    """summary.json's settings, in its key order: the allocation, then the loop's options."""
    return {
        **allocation, **options, "control_seeds": control_seeds,
        "fingerprint": order_digest(full["id"].astype(str)), "procedure": PROCEDURE,
        "scorer": getattr(scorer, "__name__", "custom") if scorer else "tst_rf",
    }


def iterative_bias_pruning(
    items: Any,
    budget: int | None,
    batch_size: int = 50,
    floor: int = 10,
    stop_below: float | None = None,
    folds: str = "random",
    seed: int = 42,
    control_seeds: int = 10,
    progress: Progress | None = None,
    alloc: str = "global",
    frac: float | None = None,
    budgets: dict[str, int] | None = None,
    scorer: Scorer | None = None,
) -> Pruning:
    """Run IBP on ``items`` (benchmark items or a question table).

    ``alloc``, ``budget``, ``frac``, ``budgets``: how removals are split into groups pruned on their own
    (:func:`~spatialbench.analysis.shortcuts.allocation.plan_groups`); ``floor``: questions every type
    keeps; ``stop_below``: a group stops when its highest bias is at or below it. ``scorer``: the
    diagnosis re-run each iteration (default a TsT-RF stress-test with ``folds``/``seed``; the score
    before/after and the control always use TsT-RF). ``progress``: called with
    (stress-tests done, stress-tests): one per iteration (at most ``ceil(budget / batch_size)`` a group;
    the total shrinks when a group stops early), before, after, and one per control seed.
    ``control_seeds``: random removals of the same counts per type (0: none); none run, and ``after`` is
    ``before``, when nothing was removed (:attr:`Pruning.no_control` says why).

    Raises:
        BudgetError: budgets that do not fit ``alloc`` or the benchmark; ``control_seeds`` below 0.
        StressTestError / LeakError: from :func:`~spatialbench.analysis.shortcuts.forest.stress_test`.
    """
    if control_seeds < 0:
        raise BudgetError(f"--control-seeds {control_seeds}: must be 0 or more (0: no control)")
    full = items if isinstance(items, pd.DataFrame) else question_table(items)
    groups = plan_groups(full, alloc, budget, frac, budgets, floor)
    tally = Tally(sum(-(-g.budget // batch_size) for g in groups) + 2 + control_seeds, progress)
    options = dict(batch_size=batch_size, floor=floor, stop_below=stop_below, folds=folds, seed=seed)
    removed, records = _groups(full, groups, options, scorer or _forest(folds, seed), tally)
    table = full[~full["id"].isin(removed)].reset_index(drop=True)
    per_group = {g.name: g.budget for g in groups}
    allocation = {"alloc": alloc, "budget": budget, "frac": frac, "budgets": per_group}
    settings = _settings(allocation, options, control_seeds, full, scorer)
    why = NO_REMOVAL if not removed else NO_SEEDS if not control_seeds else None
    seeds = 0 if why else control_seeds
    tally.total = tally.done + (2 if removed else 1) + seeds  # the iterations that ran
    scores = [_score(t, folds, seed) for t in tally.each([full, table] if removed else [full])]
    return Pruning(
        removed, list(table["id"]), records, scores[0], scores[-1],
        _control(full, removed, folds, seed, seeds, tally), settings, why,
    )
