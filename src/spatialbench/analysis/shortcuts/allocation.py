"""How an IBP removal budget is split into groups pruned on their own.

The paper's Algorithm 1 has one budget B; these splits are ours (no official IBP code exists to follow:
:mod:`.pruning`). The official ``debias_vsi_clean.py`` hard-codes per-type budgets (object size 600,
absolute and relative distance 400 each, appearance order 300, counting 314, relative direction 586,
room size 88, route planning 80) summing to 2,768, the length of the released VSI-Bench-Debiased list.

- ``global``: one group (every question), one budget.
- ``per_format``: one group per answer format (``mc``, ``num``), in name order; a total budget split in
  proportion to group size by largest remainder (ties keep name order), or explicit per-format budgets.
- ``per_type``: one group per question type (VSI-Bench's three relative-direction levels apart, as the
  official ``question_type``), largest first; ``round(frac * n)`` from each, explicit budgets, or the
  per-type counts of an id list (``budgets_from_ids``). Each budget is capped at ``n - floor``.

A group's stress-tests see only its own questions, so one group's removals never move another's scores.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import pandas as pd

from spatialbench.errors import SpatialBenchError

ALLOCS = ("global", "per_format", "per_type")


class BudgetError(SpatialBenchError, ValueError):
    """Budgets that do not fit the allocation or the benchmark (the message names the option)."""


@dataclass(frozen=True)
class Group:
    """One independently pruned group: its question ids (table order) and removal budget."""

    name: str
    ids: tuple[str, ...]
    budget: int


def question_types(table: pd.DataFrame) -> pd.Series:
    """Return each row's official ``question_type``: the task with its relative-direction level put back."""
    level = table["difficulty"].fillna("") if "difficulty" in table else pd.Series("", index=table.index)
    return table["task"].where(level == "", table["task"] + "_" + level)


def proportional_budgets(counts: Mapping[str, int], budget: int) -> dict[str, int]:
    """Split ``budget`` over groups in proportion to ``counts`` (largest remainder; ties keep key order)."""
    total = sum(counts.values())
    raw = {g: budget * n / total for g, n in counts.items()}
    out = {g: math.floor(b) for g, b in raw.items()}
    leftover = budget - sum(out.values())
    for g in sorted(counts, key=lambda g: raw[g] - out[g], reverse=True)[:leftover]:
        out[g] += 1
    return out


def budgets_from_ids(table: pd.DataFrame, ids: Iterable[str]) -> dict[str, int]:
    """Per-type counts of ``ids`` (e.g. a published removal list). Raises BudgetError on an unknown id."""
    wanted = {str(i).strip() for i in ids if str(i).strip()}
    present = table["id"].astype(str)
    unknown = sorted(wanted - set(present))
    if unknown:
        raise BudgetError(f"{len(unknown)} ids of the --budgets-from list are not in the benchmark "
                          f"(e.g. {', '.join(unknown[:5])})")
    counts = question_types(table)[present.isin(wanted)].value_counts()
    return {str(t): int(n) for t, n in counts.items()}


def _checked(budgets: Mapping[str, int], counts: Mapping[str, int], what: str) -> dict[str, int]:
    unknown = sorted(set(budgets) - set(counts))
    if unknown:
        known = ", ".join(sorted(counts))
        raise BudgetError(f"--budgets names unknown {what}s {', '.join(unknown)} (known: {known})")
    for name, b in budgets.items():
        if not 0 <= b <= counts[name]:
            raise BudgetError(f"--budgets {name}={b}: must be between 0 and its {counts[name]} questions")
    return {name: int(budgets.get(name, 0)) for name in counts}


def _check_args(alloc: str, budget: int | None, frac: float | None, budgets: Mapping[str, int] | None,
                n: int) -> None:
    given = {"--budget": budget is not None, "--frac": frac is not None, "--budgets": budgets is not None}
    allowed = {"global": {"--budget"}, "per_format": {"--budget", "--budgets"},
               "per_type": {"--frac", "--budgets"}}[alloc]
    chosen = {name for name, on in given.items() if on}
    if len(chosen) != 1 or not chosen <= allowed:
        raise BudgetError(f"--alloc {alloc} takes exactly one of {' / '.join(sorted(allowed))}; "
                          f"got {' and '.join(sorted(chosen)) or 'none'}")
    if budget is not None and not 0 < budget <= n:
        raise BudgetError(f"--budget {budget}: must be between 1 and the {n} questions")
    if frac is not None and not 0 < frac < 1:
        raise BudgetError(f"--frac {frac}: must lie strictly between 0 and 1")


def plan_groups(
    table: pd.DataFrame,
    alloc: str,
    budget: int | None = None,
    frac: float | None = None,
    budgets: Mapping[str, int] | None = None,
    floor: int = 10,
) -> list[Group]:
    """Return the groups to prune and their budgets (module docstring); groups with budget 0 left out.

    Raises:
        BudgetError: an unknown ``alloc``, budgets it does not take, or budgets beyond a group's size.
    """
    if alloc not in ALLOCS:
        raise BudgetError(f"--alloc {alloc!r}; use one of: {', '.join(ALLOCS)}")
    _check_args(alloc, budget, frac, budgets, len(table))
    ids = table["id"].astype(str)
    if alloc == "global":
        return [Group("all", tuple(ids), int(budget or 0))]
    key = table["format"] if alloc == "per_format" else question_types(table)
    sizes = key.value_counts()
    by_size = sorted(sizes.index, key=lambda t: (-sizes[t], t))
    names = sorted(sizes.index) if alloc == "per_format" else by_size
    counts = {str(name): int(sizes[name]) for name in names}
    if budgets is not None:
        planned = _checked(budgets, counts, "format" if alloc == "per_format" else "question type")
    elif budget is not None:
        planned = proportional_budgets(counts, budget)
    else:
        planned = {name: round((frac or 0.0) * n) for name, n in counts.items()}
    if alloc == "per_type":
        planned = {name: min(b, max(0, counts[name] - floor)) for name, b in planned.items()}
    return [Group(name, tuple(ids[key == name]), b) for name, b in planned.items() if b > 0]
