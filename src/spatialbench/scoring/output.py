"""Report a :class:`ScoreResult`: Markdown table (modes printed above it), ``scores.json``, item CSV.

``scores.json`` keys: ``overall`` (Avg) and one key per table column (for VSI-Bench the official names
``object_counting`` … ``obj_appearance_order``, ``object_rel_direction``), plus every task's own score
(e.g. ``object_rel_direction_easy``); values in percent, ``null`` when a task has no items. It also
stores ``modes``, ``averaged_over``, ``missing_tasks``, ``no_answer``, ``missing_predictions``,
``unmatched_predictions`` (count) with ``unmatched_prediction_ids`` (the first ``LISTED``),
``skipped_rows`` (``{"count", "first"}``: input rows not used, as ``file:line: field: message``),
``warnings``, ``pruning`` (``{"ids", "matched"}`` or null), ``data_errors``, ``by_dataset`` and
``debiased`` (same keys, or null), and last ``ci95``: ``{key: [low, high]}`` (percent; null for a key
without items), keyed like the scores (``overall`` included), a scene-clustered bootstrap interval
(:mod:`spatialbench.scoring.uncertainty`), then ``ci95_by_dataset`` and ``ci95_debiased`` (the same for
those tables), then ``filtered_responses`` (ids whose scored text another tool's filter made from the
model's raw response, e.g. lmms-eval's ``<think>`` stripping); the fields before them are written exactly
as before. Item counts stay in ``counts``. ``items.csv`` ends with each item's ``scene_id`` (the cluster of
the intervals; ``reconcile`` reads it) and ``n_options`` (0 for numerical items; SITE's chance-adjusted
accuracy is computed from it when a run is read back).

``items.csv`` text cells are escaped against spreadsheet formulas (:func:`~spatialbench.scoring.render.
spreadsheet_safe`). The three files are written as one set (:func:`~spatialbench.records.files.
atomic_write_files`): each to ``<name>.part``, renamed only when all three were written, so an error (a
full disk) leaves the earlier scoring whole (or nothing), never a mix of two scorings or a truncated file.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

from spatialbench.records.files import FileText, atomic_write_files
from spatialbench.scoring.grouped import Table
from spatialbench.scoring.items_file import items_csv_text, write_items_csv
from spatialbench.scoring.render import score_grid, summary_json, to_markdown
from spatialbench.scoring.scorer import ScoreResult
from spatialbench.scoring.uncertainty import (
    RESAMPLES,
    SMALL,
    from_scenes,
    small_cells,
    table_ci,
    table_clusters,
)

LISTED = 100
"""At most this many skipped rows / unmatched ids are listed in ``scores.json`` (all are counted)."""


def markdown_rows(named: list[tuple[str, Table]]) -> list[str]:
    """Markdown lines of a table with one row per ``(name, table)``; columns from the first table."""
    return to_markdown(score_grid(named))


def _notes(table: Table, not_applicable: tuple[str, ...] = ()) -> list[str]:
    labels = {c.key: c.group for c in table.cells}
    notes = []
    if table.missing:
        covered = ", ".join(labels[k] for k in table.averaged_over) or "nothing"
        empty = [labels[k] for k in table.missing if k not in not_applicable]
        na = [labels[k] for k in table.missing if k in not_applicable]
        why = ([f"no items for: {', '.join(empty)}"] if empty else []) + (
            [f"not applicable (printed -, as in the paper): {', '.join(na)}"] if na else [])
        notes.append(f"Avg. is over {len(table.averaged_over)} of {len(table.cells)} tasks ({covered}); "
                     f"{'; '.join(why)}.")
    if table.partial:
        partial = ", ".join(labels[k] for k in table.partial)
        notes.append(f"Partial columns (a sub-task has no items): {partial}.")
    if table.other_tasks:
        notes.append(f"Tasks outside the table (not in Avg.): {', '.join(table.other_tasks)}.")
    return notes


def _items_text(result: ScoreResult) -> str:
    scored = len(result.rows)
    if result.item_count is None or result.item_count == scored:
        return f"items: {scored}"
    return f"items: {result.item_count} ({scored} scored, {result.item_count - scored} not applicable)"


def interval_line(table: Table) -> str:
    """Return one line: ``n`` and 95 % interval of Avg. and of each cell; cells under :data:`SMALL` items.

    An interval drawn from fewer than :data:`FEW_SCENES` scenes ends in ``from K scenes``.
    """
    ci = table_ci(table)
    scenes = {k: v[1] for k, v in table_clusters(table).items()} if table.source is not None else {}
    n = sum(table.counts.values())
    parts = [_interval_text("Avg.", n, ci.get("overall"), scenes.get("overall"))]
    parts += [_interval_text(c.group, c.n, ci.get(c.key), scenes.get(c.key))
              for c in table.cells if c.accuracy is not None]
    line = (f"95 % intervals (scene-clustered bootstrap, {RESAMPLES} resamples, seeded): "
            + "; ".join(parts) + ".")
    small = small_cells(table)
    if small:
        shown = ", ".join(f"{label} (n={count})" for label, count in small)
        line += f" Fewer than {SMALL} items, too few to rank by: {shown}."
    return line


def _interval_text(label: str, n: int, ci: tuple[float, float] | None, scenes: int | None) -> str:
    # an interval drawn from a handful of scenes says so: it is far rougher than its width suggests
    return f"{label} n={n} " + (f"[{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "-") + from_scenes(scenes)


def render_markdown(result: ScoreResult, scores_file: bool = True) -> str:
    """Render the terminal report: modes line, counts, table (all / debiased / per dataset) and notes.

    ``scores_file`` says whether a ``scores.json`` is written beside the report (it lists skipped rows).
    """
    named = [("all", result.table)]
    if result.debiased is not None:
        named.append(("debiased", result.debiased))
    named += [(name, table) for name, table in result.by_dataset.items()]
    lines = [f"**{result.benchmark}** · {result.modes_line} · {_items_text(result)} · "
             f"no answer: {result.no_answer} · missing predictions: {len(result.missing_predictions)}", ""]
    lines += [f"WARNING: {w}" for w in result.warnings] + ([""] if result.warnings else [])
    lines += markdown_rows(named)
    lines += ["", interval_line(result.table), *_notes(result.table, result.not_applicable)]
    if result.skipped_rows:
        where = "listed in scores.json" if scores_file else "listed above; --out writes them to scores.json"
        lines.append(f"Input rows skipped: {len(result.skipped_rows)} ({where}).")
    if result.data_errors:
        shown = "; ".join(result.data_errors[:5]) + (" ..." if len(result.data_errors) > 5 else "")
        lines.append(f"Data errors ({len(result.data_errors)} items left out): {shown}")
    if result.unmatched_predictions:
        lines.append(f"Predictions matching no item: {len(result.unmatched_predictions)}.")
    return "\n".join(lines).rstrip() + "\n"


def scores_json(result: ScoreResult) -> dict[str, Any]:
    """Build the content of ``scores.json`` (see module docstring)."""
    by_task = result.rows[~result.rows["answered"] & ~result.rows["missing"]].groupby("task").size()
    return {
        "benchmark": result.benchmark,
        "modes": {"extract": result.extract, "mra": result.mra},
        **summary_json(result.table),
        "n_items": len(result.rows) if result.item_count is None else result.item_count,
        "n_scored": len(result.rows),
        "no_answer": {"total": result.no_answer, "by_task": {str(k): int(v) for k, v in by_task.items()}},
        "missing_predictions": len(result.missing_predictions),
        "unmatched_predictions": len(result.unmatched_predictions),
        "unmatched_prediction_ids": result.unmatched_predictions[:LISTED],
        "skipped_rows": {"count": len(result.skipped_rows), "first": result.skipped_rows[:LISTED]},
        "warnings": result.warnings,
        "pruning": result.pruning,
        "data_errors": result.data_errors,
        "by_dataset": {name: summary_json(t) for name, t in result.by_dataset.items()},
        "debiased": summary_json(result.debiased) if result.debiased is not None else None,
        "ci95": table_ci(result.table),
        "ci95_by_dataset": {name: table_ci(t) for name, t in result.by_dataset.items()},
        "ci95_debiased": table_ci(result.debiased) if result.debiased is not None else None,
        "filtered_responses": result.filtered_responses,
    }


def score_files(result: ScoreResult, out_dir: Path) -> dict[Path, FileText]:
    """Return ``{path: text}`` of ``scores.json``, ``items.csv`` and ``scores.md`` in ``out_dir``.

    ``items.csv`` is given as its writer (written in chunks as the file is made, :mod:`~spatialbench.
    scoring.items_file`). For callers that write them in one set with other files
    (:func:`~spatialbench.records.files.atomic_write_files`), e.g. ``score -B sub_bench=NAME`` with its
    breakdown files.
    """
    return {out_dir / "scores.json": json.dumps(scores_json(result), indent=2) + "\n",
            out_dir / "items.csv": partial(write_items_csv, result.rows),
            out_dir / "scores.md": render_markdown(result)}


def write_scores(result: ScoreResult, out_dir: str | Path) -> dict[str, Path]:
    """Write ``scores.json``, ``items.csv`` and ``scores.md`` into ``out_dir`` (created if needed).

    The files are renamed into place only when all three were written (see the module docstring).

    Returns:
        ``{"scores": ..., "items": ..., "markdown": ...}`` paths.

    Raises:
        WriteError (an OSError): a file cannot be written (it names the file); nothing was replaced.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = score_files(result, out)
    atomic_write_files(files)
    return dict(zip(("scores", "items", "markdown"), files, strict=True))


def items_csv(result: ScoreResult) -> str:
    """Return the ``items.csv`` text (:mod:`~spatialbench.scoring.items_file`): text cells escaped."""
    return items_csv_text(result.rows)
