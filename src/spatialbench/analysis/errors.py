"""Error taxonomy, part 1: the sample to annotate and the annotation file (``spatialbench errors sample``).

Sample (VSI-Bench App. B.2): every wrong multiple-choice answer (score < 1) plus, per numerical task, the
worse half of its answers (the ``n // 2`` lowest MRA scores of the task's ``n`` scored items; ties in
benchmark order). ``per_task=N`` then keeps N of each task's sampled items at random (seeded):
MMSI-Video-Bench Sec. 6.2 annotates errors "evenly sampled across question categories". Each sampled
item carries its self-explanation when the run used ``--strategy self-explanation`` (the ``explain``
turn in ``run.sqlite``), else null.

Annotation file (JSON, UTF-8; written by ``errors sample``, edited by hand or in the browser UI, read by
``errors table``)::

    {"schema": "spatialbench.error-annotations", "version": 1,
     "run": "/path/RUN", "benchmark": "vsibench", "model": "...", "taxonomy": "vsi-bench",
     "categories": [{"key": "visual_perception", "label": "...", "description": "..."}, ...],
     "rule": "...", "items": [
        {"id": "12", "task": "object_counting", "answer_kind": "numerical", "question": "...",
         "options": [], "ground_truth": "3", "prediction": "2", "extracted": "2.0", "score": 0.4,
         "explanation": "..." | null, "errors": [], "note": ""}, ...]}

An annotator puts one or more category keys in ``errors`` (an error with n causes counts 1/n to each,
App. B.2) and any remark in ``note``; a taxonomy with ``single_cause`` (MMSI-Video-Bench: "non-overlapping"
types, Sec. 6.1) takes one key per item. A taxonomy with column groups (MMSI: the main categories of
Fig. 7; VSI-Bench: the paper's 8 tasks, Rel. Dir. one column for its three sub-types) gives each entry its
``category`` (the column), and ``per_task`` then samples per column.
Re-sampling into an existing file keeps every item's ``errors`` and
``note`` (annotated items no longer in the sample are kept at the end with ``"sampled": false``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from spatialbench.analysis.registry import BenchmarkMismatchError
from spatialbench.analysis.stored import turn_texts
from spatialbench.benchmarks import BENCHMARKS, get_benchmark
from spatialbench.errors import SpatialBenchError
from spatialbench.records.item import AnswerKind, Item
from spatialbench.runs.folder import RunFolder

SCHEMA = "spatialbench.error-annotations"
VERSION = 1
FALLBACK_TAXONOMY = "vsi-bench"  # VSI-Bench's four general types, for a benchmark that declares none
EXPLAIN_TURN = "explain"  # the self-explanation turn of prompting.strategies (App. B.2)
RULE = (
    "all wrong multiple-choice answers and the worse half (n // 2 lowest MRA) of each numerical task's "
    "answers (VSI-Bench App. B.2)"
)


class AnnotationError(SpatialBenchError, ValueError):
    """An annotation file that does not follow the schema; the message names the file, item and field."""


def taxonomies() -> dict[str, Any]:
    """Return the error taxonomies the benchmarks declare (``BenchmarkSpec.error_taxonomy``).

    name -> ``paper``, ``categories``, ``groups`` (``benchmarks.spec.ErrorTaxonomy``); the general
    :data:`FALLBACK_TAXONOMY` first, then by name.
    """
    declared = [t for name in BENCHMARKS.names() if (t := get_benchmark(name).error_taxonomy) is not None]
    found = sorted(declared, key=lambda t: (t.name != FALLBACK_TAXONOMY, t.name))
    return {t.name: t.read() for t in found}


def default_taxonomy(benchmark: str) -> str:
    """Return the taxonomy name of ``benchmark``: the one it declares, else :data:`FALLBACK_TAXONOMY`.

    Raises:
        UnknownNameError: ``benchmark`` is not registered.
    """
    declared = get_benchmark(benchmark).error_taxonomy
    return declared.name if declared is not None else FALLBACK_TAXONOMY


def taxonomy(name: str) -> dict[str, Any]:
    """Return one taxonomy.

    Raises:
        KeyError: unknown name (the message lists the known ones).
    """
    known = taxonomies()
    if name not in known:
        raise KeyError(f"unknown error taxonomy {name!r}; known: {', '.join(known)}")
    return dict(known[name])


def explanations(run: RunFolder) -> dict[str, str]:
    """Item id -> its stored self-explanation (the last ``ok`` ``explain`` turn); {} when there is none."""
    return turn_texts(run, EXPLAIN_TURN)


def paper_sample(rows: pd.DataFrame, kinds: Mapping[str, AnswerKind]) -> list[str]:
    """Ids of the App. B.2 sample (module docstring), in the order of ``rows``.

    Args:
        rows: scored items (``id``, ``task``, ``score`` in [0, 1]; NaN rows are left out).
        kinds: item id -> its answer kind.
    """
    scored = rows[rows["score"].notna()].reset_index(drop=True)
    chosen: set[str] = set()
    for _, group in scored.groupby("task", sort=False):
        numerical = kinds.get(str(group["id"].iloc[0])) == AnswerKind.NUMERICAL
        if numerical:
            worst = group.sort_values("score", kind="stable").head(len(group) // 2)
            chosen.update(worst["id"].astype(str))
        else:
            chosen.update(group.loc[group["score"] < 1, "id"].astype(str))
    return [i for i in scored["id"].astype(str) if i in chosen]


def thin(ids: Sequence[str], tasks: Mapping[str, str], per_task: int, seed: int) -> list[str]:
    """Keep at most ``per_task`` ids of each task, drawn with ``numpy.random.default_rng(seed)``, in order."""
    rng = np.random.default_rng(seed)
    kept: set[str] = set()
    for task in dict.fromkeys(tasks[i] for i in ids):
        of_task = [i for i in ids if tasks[i] == task]
        picks = rng.choice(len(of_task), size=min(per_task, len(of_task)), replace=False)
        kept.update(of_task[int(p)] for p in picks)
    return [i for i in ids if i in kept]


def _entry(row: Mapping[str, Any], item: Item | None, explanation: str | None) -> dict[str, Any]:
    def text(value: Any) -> str | None:
        return None if value is None or (isinstance(value, float) and np.isnan(value)) else str(value)

    return {
        "id": str(row["id"]),
        "task": str(row["task"]),
        "answer_kind": item.answer_kind.value if item else None,
        "question": item.question if item else None,
        "options": list(item.options) if item else [],
        "ground_truth": text(row.get("ground_truth")),
        "prediction": text(row.get("prediction")),
        "extracted": text(row.get("extracted")),
        "score": float(row["score"]),
        "explanation": explanation,
        "errors": [],
        "note": "",
    }


def _entries(
    run: RunFolder,
    rows: Mapping[str, Mapping[str, Any]],
    ids: list[str],
    by_id: Mapping[str, Item],
    column_of: Mapping[str, str],
    per_task: int | None,
    seed: int,
) -> list[dict[str, Any]]:
    """Return the sample's entries, thinned per task or per column group (MMSI main categories)."""
    column = {i: str(column_of.get(str(r["task"]), r["task"])) for i, r in rows.items()}
    if per_task is not None:  # a taxonomy with column groups samples per group (MMSI Sec. 6.2)
        ids = thin(ids, {i: column[i] for i in ids}, per_task, seed)
    said = explanations(run)
    entries = [_entry(rows[i], by_id.get(i), said.get(i)) for i in ids]
    return [{**e, "category": column[e["id"]]} for e in entries] if column_of else entries


def _keep_annotations(
    entries: list[dict[str, Any]], previous: Mapping[str, Any] | None
) -> list[dict[str, Any]]:
    """Carry ``errors`` and ``note`` over from ``previous``; its annotated items not sampled now go last."""
    old = {e["id"]: e for e in (previous or {}).get("items", [])}
    for entry in entries:
        if entry["id"] in old:
            entry.update(errors=old[entry["id"]].get("errors", []), note=old[entry["id"]].get("note", ""))
    sampled = {e["id"] for e in entries}
    return entries + [{**e, "sampled": False} for i, e in old.items() if e.get("errors") and i not in sampled]


def _same_taxonomy(previous: Mapping[str, Any] | None, taxonomy_name: str) -> None:
    """Refuse to re-sample over annotations made with another taxonomy."""
    old = (previous or {}).get("taxonomy")
    annotated = sum(bool(e.get("errors")) for e in (previous or {}).get("items", []))
    if old is not None and old != taxonomy_name and annotated:
        raise AnnotationError(
            f"the annotation file is annotated with taxonomy {old!r} ({annotated} item(s)); re-sampling "
            f"with {taxonomy_name!r} would mix the two: give --taxonomy {old} or another --out"
        )


def check_taxonomy(run: RunFolder, taxonomy_name: str) -> None:
    """Refuse a taxonomy other than the run's benchmark's (:func:`default_taxonomy`).

    Its categories and columns are another paper's: VSI-Bench's four types crossed with MMSI-Video's
    subtype columns, or MMSI-Video's five with VSI-Bench's tasks, describe neither paper's Fig. 7 / App. B.

    Raises:
        BenchmarkMismatchError: ``taxonomy_name`` is not the one of ``run``'s benchmark.
    """
    applies = default_taxonomy(run.benchmark)
    if taxonomy_name != applies:
        raise BenchmarkMismatchError(
            f"error taxonomy {taxonomy_name!r} does not apply to {run.path}, a {run.benchmark} run; "
            f"the taxonomy that applies: {applies}"
        )


def sample_document(
    run: RunFolder,
    items: Sequence[Item],
    taxonomy_name: str,
    per_task: int | None = None,
    seed: int = 0,
    previous: Mapping[str, Any] | None = None,
    only_items: bool = False,
) -> dict[str, Any]:
    """Build the annotation document of a run's error sample (module docstring).

    Args:
        run: the scored run.
        items: its benchmark items (question text, options, answer kind).
        taxonomy_name: a taxonomy's name (:func:`taxonomies`), e.g. ``vsi-bench``.
        per_task: keep at most this many per task (:func:`thin`); None keeps the whole sample.
        seed: seed of ``per_task``.
        previous: an earlier annotation document of the same run; its ``errors`` and ``note`` are kept.
        only_items: sample only the run's items that are among ``items`` (``--subset tiny``: the paper
            annotates errors on VSI-Bench (tiny), App. B.2).

    Raises:
        KeyError: unknown taxonomy. BenchmarkMismatchError: a taxonomy of another benchmark
            (:func:`check_taxonomy`).
        AnnotationError: ``previous`` holds annotations of another taxonomy (its keys would be kept
            under this one's categories).
    """
    spec = taxonomy(taxonomy_name)
    check_taxonomy(run, taxonomy_name)
    categories, column_of = spec["categories"], spec.get("columns") or {}
    _same_taxonomy(previous, taxonomy_name)
    by_id = {item.id: item for item in items}
    kinds = {item.id: item.answer_kind for item in items}
    ids = paper_sample(run.rows[run.rows["id"].isin(set(by_id))] if only_items else run.rows, kinds)
    rows = {str(r["id"]): r for r in run.rows.to_dict("records")}
    entries = _keep_annotations(_entries(run, rows, ids, by_id, column_of, per_task, seed), previous)
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "run": str(run.path.resolve()),
        "benchmark": run.benchmark,
        "model": run.model,
        "taxonomy": taxonomy_name,
        "categories": categories,
        "rule": RULE
        + ("; among the given items only" if only_items else "")
        + (f"; then {per_task} per {'table column' if column_of else 'task'} (seed {seed})"
           if per_task is not None else ""),
        "items": entries,
    }
