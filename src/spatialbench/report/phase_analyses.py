"""The ReMindView-Bench phase analyses, drawn when their JSON exists.

Files ``RUN/analysis/<name>.json`` with key ``analysis`` and version 1 (:mod:`spatialbench.analysis`):

* ``judge`` (``spatialbench judge``, Table 2): the judges' mean score of reasoning phases (1)–(3) for
  answers correct and incorrect, bars, with the paper's rows in the table;
* ``consistency`` (``spatialbench consistency``, Table 3): % of answers judged consistent with the
  model's own reasoning, correct / incorrect / all, with the paper's rows;
* ``entropy`` (``spatialbench entropy``, Sec. 6.2 / Fig. 9): mean token entropy (nats) per phase for
  correct and incorrect answers, and the entropy curve over each phase's relative position;
* ``probe`` (``spatialbench probe``, Sec. 6.1 / Fig. 8): the probe's test accuracy per phase, overall and
  for correct / incorrect answers, with the majority-class chance line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spatialbench.report import figures
from spatialbench.report.plots import Figure, figure_of
from spatialbench.scoring.render import Grid, Value

GROUPS = ("correct", "incorrect")


def _stem(out: Path, name: str) -> Path:
    return out / "figures" / name


def _top(values: list[Value]) -> float:
    """Axis scale of the values: 1 for shares in [0, 1], else 100 (percent)."""
    numbers = [float(v) for v in values if isinstance(v, (int, float))]
    return 1.0 if numbers and max(numbers) <= 1.0 else 100.0


def draw_judge(out: Path, doc: dict[str, Any], stem: str) -> tuple[str, list[Figure], list[Grid]]:
    """Table 2: mean judge score per phase (1)–(3), correct vs incorrect answers."""
    table = doc["table"]
    phases = [k for k in ("1", "2", "3") if k in table.get("correct", {})]
    bars = [(g, [table[g][k]["mean"] for k in phases]) for g in GROUPS if g in table]
    columns = [f"({k})" for k in phases]
    values = [v for _, vs in bars for v in vs]
    title = f"judged reasoning phases ({len(doc['judges'])} judge(s))"
    paths = figures.grouped_bars(columns, bars, [], title, _stem(out, stem), ylabel="judge score",
                                 scale=_top(values))
    rows: list[tuple[str, tuple[Value, ...]]] = [
        (f"this run: {g}", tuple(table[g][k]["mean"] for k in phases)) for g in GROUPS if g in table]
    for model, groups in doc.get("reference", {}).get("rows", {}).items():
        rows += [(f"{model} (Table 2): {g}", tuple(groups[g])) for g in GROUPS if g in groups]
    return "Judged reasoning phases", [figure_of(out, paths, "Judge scores per phase (Table 2)")], [
        Grid(tuple(columns), tuple(rows), "Judge scores")]


def draw_consistency(out: Path, doc: dict[str, Any], stem: str) -> tuple[str, list[Figure], list[Grid]]:
    """Table 3: % of answers consistent with the model's own reasoning."""
    table = doc["table"]
    columns = [g for g in ("correct", "incorrect", "all") if g in table]
    ours = ("this run", [table[g]["percent"] for g in columns])
    paths = figures.grouped_bars(columns, [ours], [], "answers consistent with their reasoning",
                                 _stem(out, stem), ylabel="consistent (%)")
    rows = [(ours[0], tuple(ours[1])), ("items", tuple(table[g]["items"] for g in columns))]
    rows += [(f"{m} (Table 3)", tuple(v)) for m, v in doc.get("reference", {}).get("rows", {}).items()]
    return "Self-consistency", [figure_of(out, paths, "Consistency (Table 3)")], [
        Grid(tuple(columns), tuple(rows), "Consistent answers (%)")]


def draw_entropy(out: Path, doc: dict[str, Any], stem: str) -> tuple[str, list[Figure], list[Grid]]:
    """Fig. 9: mean entropy per phase, and the curves over each phase's tokens, correct vs incorrect."""
    phases = doc["phases"]
    keys = [k for k in ("1", "2", "3", "4") if k in phases.get("correct", {})]
    columns = [f"({k})" for k in keys]
    bars = [(g, [phases[g][k]["mean"] for k in keys]) for g in GROUPS if g in phases]
    means = figures.grouped_bars(columns, bars, [], "mean token entropy per phase", _stem(out, stem),
                                 ylabel=f"entropy ({doc.get('unit', 'nats')})", scale=0.0)
    series = []
    for style, group in zip(("o-", "s--"), GROUPS, strict=True):
        xs: list[float] = []
        ys: list[Value] = []
        for n, k in enumerate(keys):
            curve = phases.get(group, {}).get(k, {}).get("curve") or []
            xs += [n + (j + 0.5) / len(curve) for j in range(len(curve))]
            ys += curve
        series.append((group, xs, ys, style))
    unit = f"entropy ({doc.get('unit', 'nats')})"
    curves = figures.curves(series, "entropy over the phases", _stem(out, f"{stem}-curve"),
                            "phase (1)–(4), relative position within it", unit)
    grid = Grid(tuple(columns), tuple((g, tuple(v)) for g, v in bars), "Mean token entropy")
    return "Entropy of the reasoning phases", [figure_of(out, means, "Mean entropy per phase (Fig. 9)"),
                                               figure_of(out, curves, "Entropy curves (Fig. 9)")], [grid]


def draw_probe(out: Path, doc: dict[str, Any], stem: str) -> tuple[str, list[Figure], list[Grid]]:
    """Fig. 8: the probe's test accuracy per phase (all, correct, incorrect) and the chance line."""
    phases = doc["phases"]
    keys = sorted(phases, key=int)
    x = [float(k) for k in keys]
    series = [(g, x, [phases[k].get(g, {}).get("accuracy") for k in keys], style)
              for g, style in (("all", "o-"), ("correct", "s-"), ("incorrect", "^-"))]
    series.append(("chance (majority class)", x, [phases[k].get("chance") for k in keys], "k--"))
    title = f"{doc.get('probe', 'probe')} probe on {doc.get('features', 'features')}"
    paths = figures.curves(series, title, _stem(out, stem), "reasoning phase", "test accuracy")
    grid = Grid(tuple(f"({k})" for k in keys), tuple((n, tuple(y)) for n, _, y, _ in series),
                "Probe accuracy")
    drawn = [figure_of(out, paths, "Probe accuracy per phase (Fig. 8)")]
    return f"Probe: {doc.get('probe', '')}", drawn, [grid]


DRAWERS = {"judge": draw_judge, "consistency": draw_consistency, "entropy": draw_entropy,
           "probe": draw_probe}
