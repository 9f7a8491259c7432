"""Statistics of a generated set in the layout of ReMindView-Bench App. A.3 (Tables 4 and 5).

Table 4: rooms (sparse / dense), unique objects (targets), frame sets, cross-frame / non-cross-frame,
perspective-changing / self-perspective (view–view questions have neither), 2 / 3 / 4 choices; Table 5:
questions by query type and relation; objects: nameable objects shown per frame set and per frame (App. A.3:
"most images contain between 3 and 9 objects"). Each row gives the count and its percentage, with the
paper's count and percentage beside it. Also: answer-letter counts per template.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from statistics import median
from typing import Any

#: the paper's Table 4: count and percentage (App. A.3)
PAPER_TABLE4: dict[str, tuple[int, float | None]] = {
    "Unique sparse room number": (50, None),
    "Unique dense room number": (50, None),
    "Unique object number": (444, None),
    "Unique multi-view image set number": (6977, None),
    "Cross-frame VQA number": (40644, 81.3),
    "Non cross-frame VQA number": (9356, 18.7),
    "Perspective-changing VQA number": (21250, 53.1),
    "Self-perspective VQA number": (18750, 46.9),
    "2 choices": (9258, 18.5),
    "3 choices": (13868, 27.7),
    "4 choices": (26874, 53.8),
}
#: the paper's Table 5: (query type, relation) → count, percentage of 50,000
PAPER_TABLE5 = {
    ("relative_direction", "object-object"): (14624, 29.2),
    ("relative_direction", "view-object"): (12000, 24.0),
    ("relative_direction", "view-view"): (5000, 10.0),
    ("relative_distance", "object-object"): (5376, 10.8),
    ("relative_distance", "view-object"): (8000, 16.0),
    ("relative_distance", "view-view"): (5000, 10.0),
}


def _row(label: str, count: int, total: int | None) -> dict[str, Any]:
    percent = None if not total else round(100.0 * count / total, 1)
    paper_count, paper_percent = PAPER_TABLE4[label]
    return {
        "statistic": label,
        "count": count,
        "percent": percent,
        "paper_count": paper_count,
        "paper_percent": paper_percent,
    }


def statistics(rows: Sequence[dict[str, Any]], frame_sets: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Tables 4 and 5, object counts and answer-letter counts of ``rows`` (QA rows) over ``frame_sets``.

    ``frame_sets``: one dict per frame set used by a question, with ``scene``, ``density``, ``target``,
    ``objects`` (its question objects) and ``frame_objects`` (those each frame shows).
    """
    total = len(rows)
    rooms = {(f["scene"], f["density"]) for f in frame_sets}
    perspective = [r for r in rows if not r["query_type"].startswith("view-view")]
    pc = sum(r["perspective_changing"] for r in perspective)
    cf = sum(bool(r["cross_frame"]) for r in rows)
    choices = Counter(len(r["choices"].split(", ")) for r in rows)
    table4 = [
        _row("Unique sparse room number", sum(d == "sparse" for _, d in rooms), None),
        _row("Unique dense room number", sum(d == "dense" for _, d in rooms), None),
        _row("Unique object number", len({(f["scene"], f["target"]) for f in frame_sets}), None),
        _row("Unique multi-view image set number", len({f["folder"] for f in frame_sets}), None),
        _row("Cross-frame VQA number", cf, total),
        _row("Non cross-frame VQA number", total - cf, total),
        _row("Perspective-changing VQA number", pc, len(perspective)),
        _row("Self-perspective VQA number", len(perspective) - pc, len(perspective)),
        *(_row(f"{k} choices", choices[k], total) for k in (2, 3, 4)),
    ]
    kinds = Counter(tuple(r["query_type"].split("|")[:2]) for r in rows)
    table5 = [
        {
            "query_type": kind,
            "relation": relation,
            "count": kinds[(relation, kind)],
            "percent": round(100.0 * kinds[(relation, kind)] / total, 1) if total else None,
            "paper_count": paper[0],
            "paper_percent": paper[1],
        }
        for (kind, relation), paper in PAPER_TABLE5.items()
    ]
    letters: dict[str, dict[str, int]] = {}
    for r in rows:
        counts = letters.setdefault(str(r["template"]), {})
        letter = "ABCD"[r["answer_index"]]
        counts[letter] = counts.get(letter, 0) + 1
    return {
        "total": total,
        "table4": table4,
        "table5": table5,
        "objects": _objects(frame_sets),
        "answer_letters": letters,
    }


def _objects(frame_sets: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Nameable objects per frame set and per frame: medians and the share of frames showing 3–9."""
    per_set = [f["objects"] for f in frame_sets]
    per_frame = [n for f in frame_sets for n in f["frame_objects"]]
    return {
        "median_per_frame_set": float(median(per_set)) if per_set else None,
        "median_per_frame": float(median(per_frame)) if per_frame else None,
        "frames_showing_3_to_9_percent": (
            round(100.0 * sum(3 <= n <= 9 for n in per_frame) / len(per_frame), 1) if per_frame else None
        ),
        "frames_showing_none": sum(n == 0 for n in per_frame),
    }


def _cell(count: Any, percent: float | None) -> str:
    return f"{count:,}" + ("" if percent is None else f" ({percent}%)")


def markdown(stats: dict[str, Any]) -> str:
    """Tables 4 and 5 and the object counts as Markdown, this set beside the paper (App. A.3)."""
    lines = ["| statistic | this set: count (%) | paper: count (%) |", "|---|---|---|"]
    for row in stats["table4"]:
        lines.append(
            f"| {row['statistic']} | {_cell(row['count'], row['percent'])} | "
            f"{_cell(row['paper_count'], row['paper_percent'])} |"
        )
    lines += ["", "| query type | relation | this set: count (%) | paper: count (%) |", "|---|---|---|---|"]
    for row in stats["table5"]:
        lines.append(
            f"| {row['query_type']} | {row['relation']} | {_cell(row['count'], row['percent'])} | "
            f"{_cell(row['paper_count'], row['paper_percent'])} |"
        )
    objects = stats["objects"]
    lines += [
        "",
        "| nameable objects shown | this set | paper |",
        "|---|---|---|",
        f"| median per frame set | {objects['median_per_frame_set']} | 3–9 per image |",
        f"| median per frame | {objects['median_per_frame']} | 3–9 per image |",
        f"| frames showing 3–9 | {objects['frames_showing_3_to_9_percent']}% | most |",
        f"| frames showing none | {objects['frames_showing_none']} | |",
    ]
    return "\n".join(lines) + "\n"
