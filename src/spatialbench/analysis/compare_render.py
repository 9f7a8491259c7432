"""Render a ``compare`` document (:mod:`spatialbench.analysis.compare`) as Markdown, CSV, LaTeX, JSON, bars.

Everything here reads the document as JSON (a dict), so a ``compare.json`` written earlier renders the
same. Run rows print scores with one decimal, difference rows with a sign (``+3.2``, ``-1.0``); a flagged
difference ends in `` *`` and its note says what else differs. CSV keeps full precision (empty = none).
Tables go through the one table renderer (:mod:`spatialbench.scoring.render`).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from spatialbench import charts
from spatialbench.analysis.registry import DrawnFigure
from spatialbench.scoring.render import Grid, Value, to_csv, to_latex, to_markdown

FORMATS = ("markdown", "csv", "latex", "json")
FILES = {"markdown": "compare.md", "csv": "compare.csv", "latex": "compare.tex", "json": "compare.json"}


def _signed(value: float | None) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:+.1f}"


def _plain(value: float | None) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.1f}"


def _label(diff: dict[str, Any]) -> str:
    return str(diff["label"]) + (" *" if diff.get("flagged") else "")


def _grid(doc: dict[str, Any], run_cell: Any, diff_cell: Any) -> Grid:
    keys = [c["key"] for c in doc["columns"]]
    rows: list[tuple[str, tuple[Value, ...]]] = [
        (str(r["name"]), tuple(run_cell(r["scores"].get(k)) for k in keys)) for r in doc["runs"]]
    rows += [(_label(d), tuple(diff_cell(d["scores"].get(k)) for k in keys)) for d in doc["differences"]]
    return Grid(tuple(str(c["label"]) for c in doc["columns"]), tuple(rows))


def display_grid(doc: dict[str, Any]) -> Grid:
    """Rows of printed values: one per run, then one per difference."""
    return _grid(doc, _plain, _signed)


def numeric_grid(doc: dict[str, Any]) -> Grid:
    """Rows of numbers (None when empty), in the order of :func:`display_grid`."""
    return _grid(doc, lambda v: v, lambda v: v)


def render(doc: dict[str, Any], fmt: str) -> str:
    r"""Return the comparison in ``fmt`` (one of :data:`FORMATS`).

    Markdown: a title line, the table and the notes; LaTeX: a ``tabular`` with a ``\midrule`` between the
    runs and the differences and the notes as ``%`` comments.

    Raises:
        ValueError: unknown format.
    """
    if fmt == "markdown":
        subset = f" · subset {doc['subset']}" if doc.get("subset") else ""
        relative = " · differences in % of the subtracted run" if doc.get("relative") else ""
        notes = list(doc.get("notes", []))
        body = to_markdown(display_grid(doc))
        return "\n".join([f"**{doc['benchmark']}**{subset}{relative}", "", *body, *([""] if notes else []),
                          *notes]) + "\n"
    if fmt == "csv":
        return to_csv(numeric_grid(doc))
    if fmt == "latex":
        rules = (len(doc["runs"]),) if doc["differences"] else ()
        return to_latex(display_grid(doc), rules=rules, comments=doc.get("notes", []))
    if fmt == "json":
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")


def write_all(doc: dict[str, Any], out: Path) -> dict[str, Path]:
    """Write ``compare.{md,csv,tex,json}`` into ``out`` (created); each file written whole, then renamed."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for fmt, name in FILES.items():
        path = out / name
        part = path.with_name(name + ".part")
        part.write_text(render(doc, fmt), encoding="utf-8")
        part.replace(path)
        paths[fmt] = path
    return paths


def difference_bars(doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
    """Bars of the difference rows per column into ``folder/differences.{png,svg}``; none without rows."""
    columns = doc["columns"]
    rows = [(d["label"] + (" (flagged)" if d.get("flagged") else ""),
             [d["scores"].get(c["key"]) for c in columns]) for d in doc["differences"]]
    if not rows:
        return []
    paths = charts.grouped_bars([c["label"] for c in columns], rows, [], "differences of runs",
                                folder / "differences", ylabel="difference (points)")
    return [DrawnFigure("Differences per column (Fig. 13 / Fig. 9)", tuple(paths))]
