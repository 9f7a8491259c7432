"""Notes for tables that put runs side by side: on other items, or a human run still in progress (issue 22).

``compare`` and ``report`` rank runs by their scores; a 66-item import of one benchmark file beside a
90-item run of another, or a human run that answered 2 of its 4 items, read as one ranking without a word
(``score --run`` warned of the second alone). :func:`item_notes` says both, one line each.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from spatialbench.runs.folder import RunFolder


@dataclass(frozen=True)
class RunItems:
    """A row of a table: its name, the ids it is scored on, the data they come from, its sample size.

    ``sample``: a human run's sample (None for any other run); ``answered`` of it are scored. ``truths``:
    each id's (task, ground truth), what makes it the same question in another file (the Parquet and the
    TSV of MMSI-Bench); None: the data path decides. ``options``: the loader options the items were read
    with (ReVSI's ``budget``: another budget is another ground truth, even where the truths agree).
    """

    name: str
    ids: Collection[str]
    data: Path
    sample: int | None = None
    truths: Mapping[str, tuple[str, str]] | None = None
    options: Mapping[str, object] = field(default_factory=dict)


def _data(path: Path) -> str:
    return Path(*path.parts[-2:]).as_posix()  # no absolute local path in a note (issue 22)


def item_notes(rows: Sequence[RunItems], progress: bool = True) -> list[str]:
    """Return ``in progress: k of n`` for each unfinished human run, then one line when the item sets differ.

    Item sets differ when the ids differ or the runs read different data (ids are shared by every file).
    ``progress=False``: no progress lines (the report's row label says it).
    """
    unfinished = [r for r in rows if progress and r.sample is not None and len(r.ids) < r.sample]
    notes = [f"{r.name}: in progress: {len(r.ids)} of {r.sample} items answered; only the answered ones "
             "are scored" for r in unfinished]
    whole = [r for r in rows if r.sample is None]
    same_ids = len({frozenset(r.ids) for r in whole}) <= 1
    same_options = len({_options(r) for r in rows}) <= 1
    same_data = same_options and _same_questions(rows)
    if not (same_ids and same_data):
        with_options = "" if same_options else " ({})"
        shown = ", ".join(f"{r.name} {len(r.ids)} item(s) of {_data(r.data)}"
                          f"{with_options.format(_options(r) or 'default options')}" for r in rows)
        notes.append(f"items differ: {shown}; these scores are not over the same questions")
    return notes


def _options(row: RunItems) -> str:
    """Return the row's loader options as ``budget=16, ...`` (sorted; empty: the defaults)."""
    return ", ".join(f"{k}={v}" for k, v in sorted(row.options.items()))


def _same_questions(rows: Sequence[RunItems]) -> bool:
    """Whether the rows read one set of questions: each id the same task and truth in all (else one path).

    Ids alone are shared by every file (``0``, ``1``...); a copy of the file in another format is not
    another set of questions.
    """
    if any(r.truths is None for r in rows):
        return len({r.data for r in rows}) <= 1
    seen: dict[str, tuple[str, str]] = {}
    return all(seen.setdefault(k, v) == v for r in rows for k, v in (r.truths or {}).items())


def truth_text(value: object) -> str:
    """Return a ground truth as text, alike read from ``items.csv`` (``3.0``) or from an item (``"3"``)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def folder_items(run: RunFolder) -> RunItems:
    """Return a scored run folder's :class:`RunItems` (its ``items.csv`` rows; a human run's sample)."""
    sample = run.selection.ids if run.kind == "human" else None
    rows = run.rows
    columns = zip(rows["id"], rows["task"], rows["ground_truth"], strict=True)
    truths = {str(i): (str(t), truth_text(g)) for i, t, g in columns}
    return RunItems(run.name, set(rows["id"].astype(str)), run.data_path,
                    None if sample is None else len(sample), truths, run.options)
