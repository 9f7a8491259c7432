"""Render a :class:`~spatialbench.analysis.compare.Comparison` as Markdown, CSV, LaTeX and JSON.

Run rows print scores with one decimal, difference rows with a sign (``+3.2``, ``-1.0``); a flagged
difference ends in `` *`` and its note says what else differs. CSV keeps full precision (empty = none).
Markdown and CSV use the one table renderer (:mod:`spatialbench.scoring.render`).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from spatialbench.analysis.compare import Comparison
from spatialbench.scoring.render import Grid, Value, to_csv, to_markdown

FORMATS = ("markdown", "csv", "latex", "json")
FILES = {"markdown": "compare.md", "csv": "compare.csv", "latex": "compare.tex", "json": "compare.json"}
_LATEX_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}


def _signed(value: float | None) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:+.1f}"


def _plain(value: float | None) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.1f}"


def _label(comparison: Comparison, index: int) -> str:
    diff = comparison.differences[index]
    return diff.label + (" *" if diff.flagged else "")


def display_grid(comparison: Comparison) -> Grid:
    """Rows of printed values: one per run, then one per difference."""
    keys = [c.key for c in comparison.columns]
    rows: list[tuple[str, tuple[Value, ...]]] = [
        (r.name, tuple(_plain(r.scores.get(k)) for k in keys)) for r in comparison.runs
    ]
    rows += [
        (_label(comparison, i), tuple(_signed(d.scores.get(k)) for k in keys))
        for i, d in enumerate(comparison.differences)
    ]
    return Grid(tuple(c.label for c in comparison.columns), tuple(rows))


def numeric_grid(comparison: Comparison) -> Grid:
    """Rows of numbers (None when empty), in the order of :func:`display_grid`."""
    keys = [c.key for c in comparison.columns]
    rows: list[tuple[str, tuple[Value, ...]]] = [
        (r.name, tuple(r.scores.get(k) for k in keys)) for r in comparison.runs
    ]
    rows += [
        (_label(comparison, i), tuple(d.scores.get(k) for k in keys))
        for i, d in enumerate(comparison.differences)
    ]
    return Grid(tuple(c.label for c in comparison.columns), tuple(rows))


def _latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text).replace("−", "$-$")


def to_latex(comparison: Comparison) -> str:
    r"""Return a ``tabular`` (booktabs rules): header, runs, ``\midrule``, differences; notes as comments."""
    grid = display_grid(comparison)
    lines = [
        r"\begin{tabular}{l" + "r" * len(grid.header) + "}",
        r"\toprule",
        " & ".join(["", *(_latex_escape(h) for h in grid.header)]) + r" \\",
        r"\midrule",
    ]
    for index, (name, values) in enumerate(grid.rows):
        if index == len(comparison.runs) and comparison.differences:
            lines.append(r"\midrule")
        cells = [_latex_escape(name), *(str(v).replace("-", "$-$") if str(v) != "-" else "-" for v in values)]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    lines += [f"% {_latex_escape(note)}" for note in comparison.notes]
    return "\n".join(lines) + "\n"


def render(comparison: Comparison, fmt: str) -> str:
    """Return the comparison in ``fmt`` (one of :data:`FORMATS`).

    Raises:
        ValueError: unknown format.
    """
    if fmt == "markdown":
        subset = f" · subset {comparison.subset}" if comparison.subset else ""
        relative = " · differences in % of the subtracted run" if comparison.relative else ""
        title = f"**{comparison.benchmark}**{subset}{relative}"
        body = to_markdown(display_grid(comparison))
        return "\n".join([title, "", *body, *([""] if comparison.notes else []), *comparison.notes]) + "\n"
    if fmt == "csv":
        return to_csv(numeric_grid(comparison))
    if fmt == "latex":
        return to_latex(comparison)
    if fmt == "json":
        return json.dumps(comparison.to_json(), indent=2, ensure_ascii=False) + "\n"
    raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")


def write_all(comparison: Comparison, out: Path) -> dict[str, Path]:
    """Write ``compare.{md,csv,tex,json}`` into ``out`` (created); each file written whole, then renamed."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for fmt, name in FILES.items():
        path = out / name
        part = path.with_name(name + ".part")
        part.write_text(render(comparison, fmt), encoding="utf-8")
        part.replace(path)
        paths[fmt] = path
    return paths
