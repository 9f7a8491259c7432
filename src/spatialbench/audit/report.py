"""Summaries of an audit: per task counts, numeric differences, disagreements (``audit.json`` + text)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from spatialbench.audit.vsibench import AuditRecord
from spatialbench.generate.vsi.writers import write_together

STATUSES = ("agree", "disagree", "unresolved", "skipped")


def difference_stats(differences: Sequence[float], tolerance: float = 0.1) -> dict[str, Any]:
    """Signed-difference statistics: n, mean, median, min, max, share with |diff| <= ``tolerance``."""
    d = np.asarray(differences, dtype=np.float64)
    if d.size == 0:
        return {"n": 0}
    return {
        "n": int(d.size),
        "mean": round(float(d.mean()), 4),
        "median": round(float(np.median(d)), 4),
        "min": round(float(d.min()), 4),
        "max": round(float(d.max()), 4),
        f"share_within_{tolerance:g}": round(float(np.mean(np.abs(d) <= tolerance + 1e-9)), 4),
    }


def summarize(records: Sequence[AuditRecord]) -> dict[str, Any]:
    """Build the ``audit.json`` content.

    Per task: the status counts, agreement among resolvable questions, numeric differences (list and
    statistics), and every disagreement and unresolved question.
    """
    tasks: dict[str, Any] = {}
    for task in sorted({r.task for r in records}):
        rows = [r for r in records if r.task == task]
        counts = {s: sum(r.status == s for r in rows) for s in STATUSES}
        resolved = counts["agree"] + counts["disagree"]
        entry: dict[str, Any] = {
            **counts,
            # full precision: the text report rounds once (rounding here too turned 67.647 % into 67.7 %)
            "agreement": counts["agree"] / resolved if resolved else None,
        }
        diffs = [r.difference for r in rows if r.difference is not None]
        if diffs:
            entry["differences"] = [round(x, 4) for x in diffs]
            entry["difference_stats"] = difference_stats(diffs)
        entry["disagreements"] = [asdict(r) for r in rows if r.status == "disagree"]
        entry["unresolved_questions"] = [asdict(r) for r in rows if r.status == "unresolved"]
        tasks[task] = entry
    return {"total": len(records), "tasks": tasks}


def with_reviews(summary: dict[str, Any], reviews: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Attach to every disagreement its latest review flag (``review``: flag, note, reviewer, or None).

    ``reviews`` is :func:`spatialbench.records.flags.latest_flags` of the benchmark; each task also gets
    ``reviewed`` / ``not_reviewed`` counts of its disagreements, so a person sees what is left to check.
    """
    tasks = {}
    for task, entry in summary["tasks"].items():
        disagreements = [{**d, "review": _review(reviews.get(str(d["id"])))} for d in entry["disagreements"]]
        reviewed = sum(d["review"] is not None for d in disagreements)
        tasks[task] = {**entry, "disagreements": disagreements, "reviewed": reviewed,
                       "not_reviewed": len(disagreements) - reviewed}
    return {**summary, "tasks": tasks}


def _review(entry: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    return {"flag": entry["flag"], "note": entry.get("note", ""), "reviewer": entry.get("reviewer", "")}


def _review_text(record: Mapping[str, Any]) -> str:
    if "review" not in record:
        return ""
    review = record["review"]
    if review is None:
        return " [not reviewed]"
    note = f" — {review['note']}" if review["note"] else ""
    return f" [review: {review['flag']}{note}]"


def render_text(summary: dict[str, Any]) -> str:
    """Render a terminal report: one line per task, then every disagreement and unresolved question."""
    lines = [f"{'task':32s} {'agree':>6s} {'disagree':>9s} {'unresolved':>11s} {'skipped':>8s}  agreement"]
    for task, e in summary["tasks"].items():
        share = "-" if e["agreement"] is None else f"{100 * e['agreement']:.1f}%"
        lines.append(
            f"{task:32s} {e['agree']:6d} {e['disagree']:9d} {e['unresolved']:11d} {e['skipped']:8d}  {share}"
        )
    for task, e in summary["tasks"].items():
        if "difference_stats" in e:
            lines.append(f"{task} differences (recomputed - official): {e['difference_stats']}")
        for r in e["disagreements"]:
            lines.append(
                f"  DISAGREE {task} id={r['id']} scene={r['scene_id']} official={r['official']} "
                f"recomputed={r['recomputed']} diff={r['difference']} {r['details']}"
                + (f": {r['reason']}" if r["reason"] else "")
                + _review_text(r)
            )
        for r in e["unresolved_questions"]:
            lines.append(f"  UNRESOLVED {task} id={r['id']} scene={r['scene_id']}: {r['reason']}")
    return "\n".join(lines)


def write_audit(summary: dict[str, Any], out_dir: Path | str) -> Path:
    """Write ``audit.json`` into ``out_dir`` (created); returns its path.

    Strict JSON: the summary holds only finite numbers (the loader refuses non-finite ground truths and
    :func:`~spatialbench.audit.vsibench.audit_item` leaves such items unresolved), and ``allow_nan=False``
    makes a NaN that slipped through an error rather than an unreadable file. The file is replaced
    atomically (never half written).

    Raises:
        ValueError: a non-finite number in ``summary``.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "audit.json"
    text = json.dumps(summary, indent=2, allow_nan=False) + "\n"
    write_together({path: lambda p: p.write_text(text, encoding="utf-8")})
    return path
