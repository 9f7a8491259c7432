"""Render a ``compare`` document (:mod:`spatialbench.analysis.compare`) as Markdown, CSV, LaTeX, JSON, bars.

Everything here reads the document as JSON (a dict), so a ``compare.json`` written earlier renders the
same. Run rows print scores with one decimal, difference rows with a sign (``+3.2``, ``-1.0``); a flagged
difference ends in `` *`` and its note says what else differs. CSV keeps full precision (empty = none).
Tables go through the one table renderer (:mod:`spatialbench.scoring.render`).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from spatialbench import charts
from spatialbench.analysis.registry import DrawnFigure
from spatialbench.scoring.render import Grid, Value, to_csv, to_latex, to_markdown
from spatialbench.scoring.uncertainty import FEW_SCENES, SMALL, from_scenes

FORMATS = ("markdown", "csv", "latex", "json")
FILES = {"markdown": "compare.md", "csv": "compare.csv", "latex": "compare.tex", "json": "compare.json"}


def _signed(value: float | None) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:+.1f}"


def _plain(value: float | None) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.1f}"


def _label(diff: dict[str, Any]) -> str:
    return str(diff["label"]) + (" *" if diff.get("flagged") else "")


UNSURE = "†"
"""Marks a difference not shown: its paired 95 % interval includes 0 (or p ≥ 0.05), or too few items."""
LEGEND = (f"{UNSURE}: not shown: the paired 95 % interval (scene-clustered bootstrap) includes 0 or "
          f"p ≥ 0.05, or too few items/scenes (under {SMALL} shared items or under {FEW_SCENES} scenes).")


def _unit(doc: dict[str, Any]) -> str:
    return "% of baseline" if doc.get("relative") else "points"


def _grid(doc: dict[str, Any], run_cell: Any, diff_cell: Any) -> Grid:
    keys = [c["key"] for c in doc["columns"]]
    suffix = " (% of baseline)" if doc.get("relative") else ""
    rows: list[tuple[str, tuple[Value, ...]]] = [
        (str(r["name"]), tuple(run_cell(r["scores"].get(k)) for k in keys)) for r in doc["runs"]]
    rows += [(_label(d) + suffix, tuple(diff_cell(d, k) for k in keys)) for d in doc["differences"]]
    return Grid(tuple(str(c["label"]) for c in doc["columns"]), tuple(rows))


def _marked(diff: dict[str, Any], key: str) -> str:
    text = _signed(diff["scores"].get(key))
    return text + UNSURE if text != "-" and not_shown(diff, key) else text


def not_shown(diff: dict[str, Any], key: str) -> bool:
    """Return True when ``diff``'s column ``key`` is not shown to be real (:data:`UNSURE`)."""
    return key in diff.get("includes_zero", ()) or key in diff.get("too_few", ())


def display_grid(doc: dict[str, Any]) -> Grid:
    """Rows of printed values: one per run, then one per difference (``†``: its interval includes 0)."""
    return _grid(doc, _plain, _marked)


def numeric_grid(doc: dict[str, Any]) -> Grid:
    """Rows of numbers (None when empty), in the order of :func:`display_grid`."""
    return _grid(doc, lambda v: v, lambda d, k: d["scores"].get(k))


def interval_notes(doc: dict[str, Any]) -> list[str]:
    """Return one line per difference: Avg., its paired 95 % interval, p-value, detectable difference."""
    lines = []
    for diff in doc["differences"]:
        ci, p = diff.get("ci95", {}).get("overall"), diff.get("p_value", {}).get("overall")
        if ci is None:
            continue
        mdd = diff.get("minimum_detectable")
        delta = _signed(diff["scores"].get("overall"))
        lines.append(f"{diff['label']}: Avg. {delta} [{ci[0]:+.1f}, {ci[1]:+.1f}] p={p:.3f}"
                     + (f"; detectable at 80 % power: {mdd:.1f} {_unit(doc)}" if mdd else ""))
        few = _too_few_text(doc, diff)
        if few:
            lines.append(f"{diff['label']}: too few to call significant: {few}")
    if lines:
        lines.append(LEGEND)
    return lines


def _too_few_text(doc: dict[str, Any], diff: dict[str, Any]) -> str:
    labels = {c["key"]: c["label"] for c in doc["columns"]}
    n, scenes = diff.get("n", {}), diff.get("scenes", {})
    few = [k for k in diff.get("too_few", ()) if k in labels]  # the table's columns, not its sub-tasks
    return ", ".join(f"{labels.get(k, k)} (n={n.get(k)}{_comma(from_scenes(scenes.get(k)))})" for k in few)


def _comma(text: str) -> str:
    return text.replace(" from", ",", 1) if text else ""


def interval_grid(doc: dict[str, Any]) -> Grid:
    """One row per difference: per column its paired interval, p-value and n; then its detectable difference.

    A cell reads ``[low, high] p=P n=N`` (``from K scenes`` under 5 scenes), ``†`` after it when the
    difference is not shown (:func:`not_shown`); ``-`` without an interval. Its title is the legend.
    """
    keys = [c["key"] for c in doc["columns"]]
    rows = tuple((_label(d), (*(_interval_cell(d, k) for k in keys), _plain(d.get("minimum_detectable"))))
                 for d in doc["differences"])
    header = (*(str(c["label"]) for c in doc["columns"]), f"MDD ({_unit(doc)}, 80 % power)")
    title = f"Paired 95 % intervals, p-values, n and minimum detectable difference. {LEGEND}"
    return Grid(header, rows, title)


def _interval_cell(diff: dict[str, Any], key: str) -> str:
    ci, p = diff.get("ci95", {}).get(key), diff.get("p_value", {}).get(key)
    if ci is None or p is None:
        return "-"
    few = from_scenes(diff.get("scenes", {}).get(key))
    n = diff.get("n", {}).get(key)  # absent from a document written before n was recorded
    text = f"[{ci[0]:+.1f}, {ci[1]:+.1f}] p={p:.3f}" + ("" if n is None else f" n={n}") + few
    return text + (UNSURE if not_shown(diff, key) else "")


def mean_grids(doc: dict[str, Any]) -> list[Grid]:
    """Return each mean row (Fig. 13 averages) as its own table, columns sorted by value, highest first."""
    grids = []
    for diff in (d for d in doc["differences"] if str(d["kind"]).endswith("-mean")):
        order = _sorted_columns(doc, diff)
        values = tuple(_marked(diff, c["key"]) for c in order)
        grids.append(Grid(tuple(str(c["label"]) for c in order), ((_label(diff), values),),
                          f"{diff['label']}, sorted"))
    return grids


def _sorted_columns(doc: dict[str, Any], diff: dict[str, Any]) -> list[dict[str, Any]]:
    present = [c for c in doc["columns"] if diff["scores"].get(c["key"]) is not None]
    return sorted(present, key=lambda c: -float(diff["scores"][c["key"]]))


def render(doc: dict[str, Any], fmt: str) -> str:
    r"""Return the comparison in ``fmt`` (one of :data:`FORMATS`).

    Markdown: a title line, the table and the notes; LaTeX: a ``tabular`` with a ``\midrule`` between the
    runs and the differences and the notes as ``%`` comments.

    Raises:
        ValueError: unknown format.
    """
    if fmt == "markdown":
        subset = f" · subset {doc['subset']}" if doc.get("subset") else ""
        relative = " · differences in % of baseline (the subtracted run)" if doc.get("relative") else ""
        notes = [*doc.get("notes", []), *interval_notes(doc)]
        body = to_markdown(display_grid(doc))
        for grid in mean_grids(doc):
            body += ["", *to_markdown(grid)]
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


def comparison_stem(doc: dict[str, Any], out: Path) -> str:
    """Return the file stem of a comparison: ``compare_<run>_vs_<run>...`` (names made file-safe).

    A ``relative`` comparison ends in ``_relative``, so it and the comparison in points of the same runs
    keep a file each. A comparison of other runs already written under that stem (names that differ only
    in unsafe characters) is never overwritten: ``-2``, ``-3``... is added. The same runs compared again
    reuse it.
    """
    names = [str(r["name"]) for r in doc["runs"]]
    base = "compare_" + "_vs_".join(re.sub(r"[^A-Za-z0-9.+-]+", "-", n).strip("-") or "run" for n in names)
    base = base[:150] + ("_relative" if doc.get("relative") else "")
    stem, k = base, 1
    while (out / f"{stem}.json").is_file() and _runs_of(out / f"{stem}.json") != names:
        k += 1
        stem = f"{base}-{k}"
    return stem


def _runs_of(path: Path) -> list[str] | None:
    try:
        return [str(r["name"]) for r in json.loads(path.read_text(encoding="utf-8"))["runs"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_all(doc: dict[str, Any], out: Path, stem: str | None = None) -> dict[str, Path]:
    """Write ``<stem>.{md,csv,tex,json}`` into ``out`` (created; default stem: :func:`comparison_stem`).

    Each file is written whole, then renamed.
    """
    out.mkdir(parents=True, exist_ok=True)
    stem = stem or comparison_stem(doc, out)
    paths = {}
    for fmt, name in FILES.items():
        name = stem + Path(name).suffix
        path = out / name
        part = path.with_name(name + ".part")
        part.write_text(render(doc, fmt), encoding="utf-8")
        part.replace(path)
        paths[fmt] = path
    return paths


def difference_bars(doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
    """Draw bars of the difference rows per column, with their paired 95 % intervals as error bars.

    Into ``folder/differences.{png,svg}``; each mean row sorted in its own figure (Fig. 13); none if no rows.
    """
    ylabel = f"difference ({_unit(doc)})"
    drawn = [_bars(doc, doc["columns"], list(doc["differences"]), folder / "differences", ylabel,
                   "Differences per column (Fig. 13 / Fig. 9)")]
    for k, diff in enumerate(d for d in doc["differences"] if str(d["kind"]).endswith("-mean")):
        drawn.append(_bars(doc, _sorted_columns(doc, diff), [diff], folder / f"mean_differences_{k}", ylabel,
                           f"{diff['label']}, sorted (Fig. 13)"))
    return [d for d in drawn if d is not None]


def _bars(doc: dict[str, Any], columns: list[dict[str, Any]], diffs: list[dict[str, Any]], stem: Path,
          ylabel: str, title: str) -> DrawnFigure | None:
    if not diffs or not columns:
        return None
    rows = [(d["label"] + (" (flagged)" if d.get("flagged") else ""),
             [d["scores"].get(c["key"]) for c in columns]) for d in diffs]
    intervals = [[d.get("ci95", {}).get(c["key"]) for c in columns] for d in diffs]
    paths = charts.grouped_bars([_column_label(c, diffs) for c in columns], rows, [],
                                f"differences (95 % intervals; {UNSURE} too few items/scenes)", stem,
                                ylabel=ylabel, intervals=intervals)
    return DrawnFigure(title, tuple(paths))


def _column_label(column: dict[str, Any], diffs: list[dict[str, Any]]) -> str:
    """``label`` over ``n=N`` (the first row's shared items), ``†`` when a row finds the column too small."""
    key = column["key"]
    n = next((d["n"][key] for d in diffs if key in d.get("n", {})), None)
    few = any(key in d.get("too_few", ()) for d in diffs)
    return str(column["label"]) + (f"\nn={n}" if n is not None else "") + (f" {UNSURE}" if few else "")
