"""Analyses drawn when their JSON exists next to a run; an analysis that is absent is not drawn.

Looked for: every ``RUN/analysis/*.json`` of the report's runs and a ``sweep.json`` in a run's parent
folder (``spatialbench sweep`` puts its runs in ``OUT/<setting>-<value>``). Drawn by their ``schema``
(:mod:`spatialbench.analysis`), version 1:

* ``spatialbench.compare`` (``spatialbench compare``): the difference rows — Enabled − Disabled,
  Disabled − Chance (VSI-Bench Fig. 13), strategy − direct (Fig. 9), any ``--against`` row — as bars
  per column, plus the table (flagged rows marked);
* ``spatialbench.error-table`` (``spatialbench errors table``): the share of each error category per task,
  stacked (VSI-Bench Fig. 8, MMSI-Video-Bench Fig. 7);
* ``spatialbench.cogmap-locality`` (``spatialbench cogmap``): map-distance accuracy per ground-truth
  distance bin with the paper's curves dashed (Fig. 11), and the first maps the run stored beside their
  ground truth (Fig. 10, :mod:`spatialbench.report.cogmaps`);
* ``spatialbench.sweep``: Avg. against the swept value (accuracy vs frames, App. C.3 / Fig. 12, when the
  values are frame strategies with a count).

and every registered analysis (:data:`spatialbench.analysis.registry.ANALYSES`) by its ``analysis`` name
and version, drawn by its own ``tables`` / ``figures`` into ``figures/<stem>/`` (the ReMindView-Bench
phase analyses: ``judge`` Table 2, ``consistency`` Table 3, ``entropy`` Fig. 9, ``probe`` Fig. 8).

Other files (another schema or version, such as the annotation file ``errors.json``) are left out; a
file of a drawn schema that cannot be read is listed with the reason instead of a figure.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spatialbench.analysis.errors import taxonomy
from spatialbench.analysis.registry import ANALYSES
from spatialbench.report import cogmaps, figures
from spatialbench.report.plots import Figure, figure_of, slug
from spatialbench.report.runs import RunData
from spatialbench.scoring.render import Grid, Value


@dataclass(frozen=True)
class Analysis:
    """One drawn analysis: title, source file (relative text), figures and tables."""

    title: str
    source: str
    figures: list[Figure] = field(default_factory=list)
    grids: list[Grid] = field(default_factory=list)


def discover(runs: Sequence[RunData]) -> list[tuple[Path, RunData]]:
    """Return the analysis files of ``runs`` (module docstring) with their run, each once, in run order."""
    found: dict[Path, RunData] = {}
    for run in runs:
        sweep = run.path.parent / "sweep.json"
        for path in [*sorted((run.path / "analysis").glob("*.json")), *([sweep] if sweep.is_file() else [])]:
            found.setdefault(path.resolve(), run)
    return list(found.items())


def draw_compare(out: Path, doc: dict[str, Any], stem: str) -> Analysis:
    """Bars of the comparison's difference rows per column, and its table."""
    columns = doc["columns"]
    labels = [c["label"] for c in columns]
    rows: list[tuple[str, Sequence[Value]]] = [
        (d["label"] + (" (flagged)" if d.get("flagged") else ""),
         [d["scores"].get(c["key"]) for c in columns]) for d in doc["differences"]]
    runs = [(r["name"], tuple(r["scores"].get(c["key"]) for c in columns)) for r in doc["runs"]]
    grid = Grid(tuple(labels), tuple([*runs, *((n, tuple(v)) for n, v in rows)]), "Runs and differences")
    drawn = []
    if rows:
        paths = figures.grouped_bars(labels, rows, [], "differences of runs", out / "figures" / stem,
                                     ylabel="difference (points)")
        drawn.append(figure_of(out, paths, "Differences per column (Fig. 13 / Fig. 9)"))
    return Analysis("Comparison of runs", "", drawn, [grid])


def draw_error_table(out: Path, doc: dict[str, Any], stem: str) -> Analysis:
    """Stacked shares of the error categories per task (groups such as spatial reasoning left out)."""
    spec = taxonomy(str(doc["taxonomy"]))
    tasks = list(doc["tasks"])
    shares = doc["shares"]
    stacks = [(c["label"], [shares.get(c["key"], {}).get(t) for t in tasks]) for c in spec["categories"]]
    paths = figures.stacked_bars(tasks, stacks, f"error types ({doc['taxonomy']})", out / "figures" / stem)
    annotated = ("annotated errors", tuple(doc["annotated"].get(t) for t in tasks))
    grid = Grid(tuple(tasks), (*((n, tuple(v)) for n, v in stacks), annotated), "Error types (%)")
    return Analysis("Error taxonomy", "", [figure_of(out, paths, "Error types per task (Fig. 8)")], [grid])


def draw_locality(out: Path, doc: dict[str, Any], stem: str) -> Analysis:
    """Map-distance accuracy per ground-truth distance bin, the paper's curves dashed."""
    bins = doc["bins"]
    x = [(b["low"] + b["high"]) / 2 for b in bins]
    series = [("this run", x, [b["accuracy"] for b in bins], "o-")]
    reference = doc.get("reference", {})
    styles = ("k--", "k:", "k-.")
    series += [(f"paper: {name}", x, list(curve)[:len(x)], styles[k % len(styles)])
               for k, (name, curve) in enumerate(reference.items())]
    paths = figures.curves(series, "cognitive-map locality", out / "figures" / stem,
                           "ground-truth distance (grid cells)", "map-distance accuracy")
    rows = (("accuracy", tuple(b["accuracy"] for b in bins)), ("pairs", tuple(b["total"] for b in bins)))
    grid = Grid(tuple(f"{b['low']:.1f}-{b['high']:.1f}" for b in bins), rows, "Locality per distance bin")
    return Analysis("Cognitive-map locality", "", [figure_of(out, paths, "Locality (Fig. 11)")], [grid])


_COUNT = re.compile(r"^[a-z]+:(\d+)")


def draw_sweep(out: Path, doc: dict[str, Any], stem: str) -> Analysis | None:
    """Avg. against the swept value; a curve when every value names a frame count (``uniform:16``)."""
    comparison = doc.get("comparison") or {}
    scores = {r["name"]: r["scores"].get("overall") for r in comparison.get("runs", [])}
    values = [str(v) for v in doc["values"]]
    names = [Path(r["path"]).name for r in doc["runs"]]
    averages = [scores.get(n) for n in names]
    counts = [_COUNT.match(v) for v in values]
    if not any(a is not None for a in averages):
        return None
    if doc["setting"] == "frames" and all(counts):
        x = [float(m.group(1)) for m in counts if m]
        paths = figures.curves([("Avg.", x, averages, "o-")], "accuracy vs frames", out / "figures" / stem,
                               "frames sent", "Avg. (%)")
    else:
        paths = figures.grouped_bars(values, [("Avg.", averages)], [], f"sweep over {doc['setting']}",
                                     out / "figures" / stem)
    grid = Grid(tuple(values), (("Avg.", tuple(averages)),), f"Sweep over {doc['setting']}")
    drawn = [figure_of(out, paths, "Avg. per value (Fig. 12)")]
    return Analysis(f"Sweep: {doc['setting']}", "", drawn, [grid])


LOCALITY = "spatialbench.cogmap-locality"
DRAWERS: dict[str, Callable[[Path, dict[str, Any], str], Analysis | None]] = {
    "spatialbench.compare": draw_compare,
    "spatialbench.error-table": draw_error_table,
    LOCALITY: draw_locality,
    "spatialbench.sweep": draw_sweep,
}


def draw_document(out: Path, doc: dict[str, Any], stem: str) -> Analysis | None:
    """Draw one document by its ``schema`` (part 1) or ``analysis`` name (phase analyses); None: not one."""
    if doc.get("version") != 1:
        return None
    drawer = DRAWERS.get(str(doc.get("schema")))
    if drawer is not None:
        return drawer(out, doc, stem)
    name = str(doc.get("analysis"))
    if name not in ANALYSES or ANALYSES.get(name).version != doc.get("version"):
        return None
    part = ANALYSES.get(name)
    drawn = [figure_of(out, list(f.paths), f.caption) for f in part.figures(doc, out / "figures" / stem)]
    return Analysis(part.heading(doc), "", drawn, part.tables(doc))


def draw_all(out: Path, runs: Sequence[RunData]) -> list[Analysis]:
    """Draw every analysis file found for ``runs`` into ``out/figures``; others are listed, not drawn.

    Never raises for a malformed file: it is listed with the reason instead.
    """
    drawn = []
    for k, (path, run) in enumerate(discover(runs)):
        source = str(path)
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            result = draw_document(out, doc, f"analysis-{k + 1}-{slug(path.stem)}")
        except (ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
            drawn.append(Analysis(f"{path.name}: not drawn", f"{source} ({type(exc).__name__}: {exc})"))
            continue
        if result is not None:
            maps = cogmaps.map_figures(out, run, doc) if doc.get("schema") == LOCALITY else []
            drawn.append(Analysis(result.title, source, [*maps, *result.figures], result.grids))
    return drawn
