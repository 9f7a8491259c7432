"""Reconcile two scored folders item by item: attribute the whole gap A − B to causes, exactly.

A and B are folders written by ``spatialbench score --out`` (``scores.json`` + ``items.csv``) on one
benchmark. Items are joined on ``id``; B's item table is turned into A's one cause at a time, in a fixed
order, and each cause's points are the change of B's aggregate (the benchmark's table, Avg.) that step
makes, so the parts sum exactly to ``A.overall − B.overall`` (a telescoping sum):

1. ``items only in one side`` — A's items absent from B are added, B's absent from A removed;
2. ``dataset revision`` — same id, another ground truth;
3. ``response text`` — another generation, or a filter such as ``<think>`` stripping (an item a side's
   ``scores.json`` lists in ``filtered_responses`` is named here even when both sides scored the same
   filtered text, so that the filter is seen; it then carries 0 points);
4. ``extraction rule`` — same text, another extracted answer;
5. ``MRA rule`` — same extracted answer, another score (``<`` vs ``<=``, threshold grid);
6. ``aggregation`` — A's reported overall against B's aggregation of A's item scores (micro vs macro,
   task weighting, sub-task merging); it names no items.

Each item is counted under the first cause that applies to it.

The *remaining* gap is the response-text part: what no rule explains (another generation). The document's
``interval`` says whether it is within sampling noise: the scene-clustered paired bootstrap
(:mod:`spatialbench.scoring.uncertainty`, items of one scene resampled together by ``items.csv``'s
``scene_id``, an item its own cluster without one) of the step that swaps in A's response-text scores,
with its 95 % interval, p-value and ``within_noise`` (the interval includes 0).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from spatialbench.errors import SpatialBenchError
from spatialbench.scoring.grouped import Table
from spatialbench.scoring.uncertainty import Resampler, paired, table_draws

CAUSES = ("items only in one side", "dataset revision", "response text", "extraction rule", "MRA rule")
Aggregate = Callable[[pd.DataFrame], Table]
"""Item rows (``id``, ``task``, ``dataset``, ``score`` …) → the benchmark's table (``average``: points)."""


class ReconcileInputError(SpatialBenchError, ValueError):
    """A folder given to reconcile is not a scored folder."""


@dataclass(frozen=True)
class Scored:
    """One side: its reported overall (points), item rows (index ``id``, as text), modes, filtered ids."""

    overall: float
    rows: pd.DataFrame
    modes: dict[str, str]
    filtered: frozenset[str] = frozenset()
    benchmark: str | None = None


COLUMNS = ("id", "task", "prediction", "extracted", "score", "ground_truth")
"""The ``items.csv`` columns reconcile reads (``scene_id`` too when present)."""


def read_scored(folder: Path) -> Scored:
    """Read ``scores.json`` and ``items.csv`` of a ``score --out`` folder.

    Raises:
        ReconcileInputError: a file is missing, unreadable, lacks ``overall`` or a column of
            :data:`COLUMNS`, or holds no item.
    """
    scores, items = folder / "scores.json", folder / "items.csv"
    for path in (scores, items):
        if not path.is_file():
            raise ReconcileInputError(f"{path}: missing (reconcile reads `spatialbench score --out` folders)")
    try:
        document = json.loads(scores.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as err:
        raise ReconcileInputError(f"{scores}: not JSON ({err})") from None
    if not isinstance(document, dict) or not isinstance(document.get("overall"), (int, float)):
        raise ReconcileInputError(f"{scores}: no numeric 'overall'")
    text = {"id": str, "prediction": str, "extracted": str, "ground_truth": str, "scene_id": str}
    try:
        rows = pd.read_csv(items, dtype=text, keep_default_na=False)
    except (ValueError, UnicodeDecodeError) as err:  # pandas' EmptyDataError and ParserError among them
        raise ReconcileInputError(f"{items}: not a readable items table ({err})") from None
    missing = [c for c in COLUMNS if c not in rows.columns]
    if missing:
        found = ", ".join(rows.columns)
        raise ReconcileInputError(f"{items}: no column {', '.join(missing)} (found: {found})")
    if rows.empty:
        raise ReconcileInputError(f"{items}: no items")
    rows["score"] = pd.to_numeric(rows["score"], errors="coerce")
    modes = dict(document.get("modes") or {})
    filtered = frozenset(str(i) for i in document.get("filtered_responses") or ())
    benchmark = document.get("benchmark")
    return Scored(float(document["overall"]), rows.set_index("id", drop=False), modes, filtered,
                  None if benchmark is None else str(benchmark))


def _differs(a: pd.Series, b: pd.Series) -> pd.Series:
    return a.astype(str) != b.astype(str)


def _cause_ids(a: Scored, b: Scored) -> list[list[str]]:
    """Ids of the shared items per per-item cause 2–5 (first cause that applies).

    A revision is named even when both scores agree, so is a filtered response; another text or reading
    only when it changes the score (a reading such as ``30.0`` for nothing that scores 0 either way
    carries no points).
    """
    shared = a.rows.index.intersection(b.rows.index)
    left, right = a.rows.loc[shared], b.rows.loc[shared]
    scored = (left["score"] - right["score"]).abs() > 1e-12
    filtered = shared.isin(sorted(a.filtered | b.filtered))
    tests = [_differs(left["ground_truth"], right["ground_truth"]),
             (_differs(left["prediction"], right["prediction"]) & scored) | filtered,
             _differs(left["extracted"], right["extracted"]) & scored,
             scored]
    taken = pd.Series(False, index=shared)
    out = []
    for test in tests:
        chosen = test & ~taken
        out.append([str(i) for i in shared[chosen.to_numpy()]])
        taken |= chosen
    return out


def _average(table: Table) -> float:
    return float("nan") if table.average is None else float(table.average)


def _noise(before: Table, after: Table) -> dict[str, object]:
    """Test one step ``before`` → ``after`` (tables of the same items, other scores), paired, by scene."""
    test = None
    if before.source is not None and after.source is not None:  # tables made by scoring.grouped keep rows
        resampler = Resampler.for_rows(before.source)
        draws = [table_draws(table, resampler)["overall"] for table in (after, before)]
        test = None if draws[0] is None or draws[1] is None else paired(draws[0] - draws[1])
    if test is None:
        return {"points": 0.0, "ci95": None, "p_value": None, "within_noise": True}
    return {"points": test.delta, "ci95": list(test.ci95), "p_value": test.p_value,
            "within_noise": test.includes_zero}


def reconcile(a: Scored, b: Scored, aggregate: Aggregate) -> dict[str, object]:
    """Attribute ``a.overall − b.overall`` to causes (see the module text); returns the reconcile document.

    Returns:
        ``{"total", "causes": [{"cause", "points", "items"}], "interval", "modes": {"A", "B"}}``; points
        in score points (0–100), summing to ``total`` up to float rounding; ``interval``: the remaining
        (response-text) gap's ``points``, ``ci95``, ``p_value`` and ``within_noise``.
    """
    only_a = [str(i) for i in a.rows.index.difference(b.rows.index)]
    only_b = [str(i) for i in b.rows.index.difference(a.rows.index)]
    current = b.rows.drop(index=only_b)
    current = pd.concat([current, a.rows.loc[only_a]])
    table = aggregate(current)
    level = _average(table)
    causes = [{"cause": CAUSES[0], "points": level - b.overall, "items": only_a + only_b}]
    interval: dict[str, object] = {}
    for name, ids in zip(CAUSES[1:], _cause_ids(a, b), strict=True):
        current = current.copy()
        current.loc[ids, "score"] = a.rows.loc[ids, "score"].to_numpy()
        before, table = table, aggregate(current)
        if name == "response text":
            interval = _noise(before, table)
        new = _average(table)
        causes.append({"cause": name, "points": new - level, "items": ids})
        level = new
    causes.append({"cause": "aggregation", "points": a.overall - level, "items": []})
    return {"total": a.overall - b.overall, "causes": causes, "interval": interval,
            "modes": {"A": a.modes, "B": b.modes}}


def reconcile_markdown(document: dict[str, object]) -> str:
    """Render the table of causes (points, item count) and the items of each cause, as Markdown."""
    causes = document["causes"]
    assert isinstance(causes, list)
    lines = ["| cause | points | items |", "|---|---:|---:|"]
    lines += [f"| {c['cause']} | {c['points']:+.4f} | {len(c['items'])} |" for c in causes]
    lines.append(f"| **total A − B** | {document['total']:+.4f} | |")
    lines += [f"\n{c['cause']}: {', '.join(c['items'])}" for c in causes if c["items"]]
    lines.append("\n" + _noise_line(document.get("interval")))
    return "\n".join(lines) + "\n"


def _noise_line(interval: object) -> str:
    if not isinstance(interval, dict) or interval.get("ci95") is None:
        return "Remaining gap (response text): none, so nothing to test against noise."
    low, high = interval["ci95"]
    verdict = "within sampling noise" if interval["within_noise"] else "beyond sampling noise"
    return (f"Remaining gap (response text, what no rule explains): {interval['points']:+.4f} points, "
            f"scene-clustered 95 % interval [{low:+.4f}, {high:+.4f}], p = {interval['p_value']}: {verdict}.")


def benchmark_aggregate(name: str) -> Aggregate:
    """Return benchmark ``name``'s own table over item rows (its ``average``: the Avg., points).

    Raises:
        UnknownNameError: ``name`` is not a registered benchmark.
    """
    from spatialbench.benchmarks import BENCHMARKS

    table = BENCHMARKS.get(name).scoring.table

    def of(rows: pd.DataFrame) -> Table:
        # the table counts failures from ``answered``; items.csv leaves ``extracted`` empty for no answer
        frame = rows.reset_index(drop=True).assign(answered=rows["extracted"].astype(str).to_numpy() != "")
        return table(frame)

    return of


def reconcile_folders(a: Path, b: Path, out: Path) -> dict[str, object]:
    """Reconcile two ``score --out`` folders on B's benchmark; write ``out/reconcile.json`` and ``.md``.

    Raises:
        ReconcileInputError: a folder is not a scored folder, the two name other benchmarks or score
            other annotation files (most shared ids with other ground truths), or ``out`` is not writable.
    """
    left, right = read_scored(a), read_scored(b)
    names = {left.benchmark, right.benchmark}
    shared = left.rows.index.intersection(right.rows.index)
    asked = _differs(left.rows.loc[shared, "ground_truth"], right.rows.loc[shared, "ground_truth"])
    if len(shared) and asked.mean() > 0.5:  # most "revisions": another benchmark file joined on its ids
        raise ReconcileInputError(f"{a} and {b}: {int(asked.sum())} of {len(shared)} shared ids have other "
                                  "ground truths; they score different annotation files, not one benchmark")
    if len(names) != 1:
        raise ReconcileInputError(f"{a} and {b} score other benchmarks: {sorted(map(str, names))}")
    document = reconcile(left, right, benchmark_aggregate(str(names.pop())))
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "reconcile.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        (out / "reconcile.md").write_text(reconcile_markdown(document), encoding="utf-8")
    except OSError as err:
        raise ReconcileInputError(f"--out {out}: not a writable folder ({err.strerror or err})") from None
    return document
