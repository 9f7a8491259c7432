"""Statistics of a generated set in the layout of ReMindView-Bench App. A.3 (Tables 4 and 5).

Table 4: rooms (sparse / dense), unique objects (targets), frame sets, cross-frame / non-cross-frame,
perspective-changing / self-perspective (view–view questions have neither), 2 / 3 / 4 choices; Table 5:
questions by query type and relation. Each row gives the count and its percentage, with the paper's
percentage beside it where the paper gives one. Also: answer-letter counts per template.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

#: the paper's percentages (App. A.3)
PAPER_PERCENT = {
    "Cross-frame VQA number": 81.3,
    "Non cross-frame VQA number": 18.7,
    "Perspective-changing VQA number": 53.1,
    "Self-perspective VQA number": 46.9,
    "2 choices": 18.5,
    "3 choices": 27.7,
    "4 choices": 53.8,
}


def _row(label: str, count: int, total: int | None) -> dict[str, Any]:
    percent = None if not total else round(100.0 * count / total, 1)
    return {"statistic": label, "count": count, "percent": percent, "paper_percent": PAPER_PERCENT.get(label)}


def statistics(rows: Sequence[dict[str, Any]], frame_sets: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Table 4 and Table 5 rows and the letter counts of ``rows`` (QA rows) over ``frame_sets``.

    ``frame_sets``: one dict per frame set used by a question, with ``scene``, ``density``, ``target``.
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
        }
        for kind in ("relative_direction", "relative_distance")
        for relation in ("object-object", "view-object", "view-view")
    ]
    letters: dict[str, dict[str, int]] = {}
    for r in rows:
        counts = letters.setdefault(str(r["template"]), {})
        letter = "ABCD"[r["answer_index"]]
        counts[letter] = counts.get(letter, 0) + 1
    return {"total": total, "table4": table4, "table5": table5, "answer_letters": letters}


def markdown(stats: dict[str, Any]) -> str:
    """Tables 4 and 5 as Markdown (count, percent, paper percent)."""
    lines = ["| statistic | count (%) | paper (%) |", "|---|---|---|"]
    for row in stats["table4"]:
        share = "" if row["percent"] is None else f" ({row['percent']}%)"
        paper = "" if row["paper_percent"] is None else f"{row['paper_percent']}%"
        lines.append(f"| {row['statistic']} | {row['count']}{share} | {paper} |")
    lines += ["", "| query type | relation | count (%) |", "|---|---|---|"]
    for row in stats["table5"]:
        lines.append(f"| {row['query_type']} | {row['relation']} | {row['count']} ({row['percent']}%) |")
    return "\n".join(lines) + "\n"
