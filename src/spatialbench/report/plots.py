"""Which figures the report draws from its runs, and where (``figures/<name>.{png,svg}``).

* ``tasks`` — per-task bars of every model, blind and human run, chance runs as ticks beside the bars
  (Fig. 6 / Fig. 1 right);
* ``radar`` — one radar with every model, blind and human run overlaid, frequency chance dashed behind
  (Fig. 1 left);
* ``gap-<blind run>`` — for each blind run and its vision run (same model name; else the only vision run),
  Enabled − Disabled and Disabled − Chance (Freq.) per column, sorted by the first (Fig. 13);
* ``breakdown-<k>`` — one set of bars per breakdown grid (per dataset, MMSI difficulty, ReMindView
  object count and distance), chance rows as ticks beside the bars.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from spatialbench.report import figures
from spatialbench.report.runs import RunData
from spatialbench.report.tables import Leaderboard, row_label
from spatialbench.scoring.render import CI_ROW, Grid, Value
from spatialbench.scoring.uncertainty import Interval, Resampler, paired, table_draws


@dataclass(frozen=True)
class Figure:
    """A drawn figure: paths relative to the report folder (``svg`` None: drawn as PNG only), its caption."""

    png: str
    svg: str | None
    caption: str


def slug(text: str) -> str:
    """Lower-case file-name form of ``text`` (runs of other characters become ``-``)."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "run"


def figure_of(out: Path, paths: list[Path], caption: str) -> Figure:
    """Return the :class:`Figure` of written ``paths`` (PNG, then SVG if any), relative to the report ``out``.

    Raises:
        ValueError: no path, or more than two (a figure is one PNG and at most one SVG).
    """
    if not 1 <= len(paths) <= 2:
        raise ValueError(f"a figure is a PNG and at most one SVG, got {len(paths)} file(s): {caption}")
    png, *svg = (p.relative_to(out).as_posix() for p in paths)
    return Figure(png, svg[0] if svg else None, caption)


def _values(board: Leaderboard, run: RunData) -> tuple[Value, ...]:
    return tuple(run.result.table.scores.get(k) for k in board.keys)


def task_figures(out: Path, board: Leaderboard, runs: Sequence[RunData]) -> list[Figure]:
    """Draw the per-task bars and one radar of every answering run overlaid (module docstring).

    The bars carry each run's scene-clustered 95 % interval as an error bar; a column is labelled with its
    n (the first answering run's).
    """
    answering = [r for r in runs if r.kind != "baseline"]
    chance = [(row_label(r), _values(board, r)) for r in runs if r.kind == "baseline"]
    columns = board.header[1:]
    bars = [(row_label(r), _values(board, r)) for r in answering]
    intervals = [[ci for ci, _, _ in board.intervals.get(name, ())[1:]] for name, _ in bars]
    counts = [n for _, n, _ in board.intervals.get(bars[0][0], ())[1:]] if bars else []
    paths = figures.grouped_bars(_with_n(columns, counts), bars, chance,
                                 f"{runs[0].spec.name}: score per task", out / "figures" / "tasks",
                                 intervals=intervals)
    caption = ("Score per task (error bars: scene-clustered 95 % intervals; chance: the tick before each "
               "task's bars, dashed across the bars that reach it)")
    drawn = [figure_of(out, paths, caption)]
    if bars:
        frequency = next(((n, v) for n, v in chance if "Frequency" in n), None)
        title = f"{runs[0].spec.name}: score per task"
        paths = figures.radar(columns, bars, title, out / "figures" / "radar", frequency)
        what = "every run overlaid" + (", frequency chance dashed" if frequency else "")
        drawn.append(figure_of(out, paths, f"Radar: {what} (Fig. 1 left)"))
    return drawn


def vision_partner(blind: RunData, runs: Sequence[RunData]) -> RunData | None:
    """Return the vision run a blind run is compared with: same model, else the only one, else None."""
    vision = [r for r in runs if r.kind == "model" and r.spec.name == blind.spec.name]
    same = [r for r in vision if r.config.model.name == blind.config.model.name]
    if same:
        return same[0]
    return vision[0] if len(vision) == 1 else None


def gap_figures(out: Path, board: Leaderboard, runs: Sequence[RunData]) -> list[Figure]:
    """Fig. 13 for every blind run that has a vision partner (module docstring)."""
    frequency = next((r for r in runs if r.config.model.name.startswith("chance-frequency")), None)
    drawn = []
    for blind in (r for r in runs if r.kind == "blind"):
        vision = vision_partner(blind, runs)
        if vision is None:
            continue
        chance = _values(board, frequency) if frequency is not None else None
        stem = out / "figures" / f"gap-{slug(blind.label)}"
        title = f"{vision.label} vs {blind.label}"
        intervals = [paired_intervals(vision, blind, board.keys)]
        if frequency is not None:
            intervals.append(paired_intervals(blind, frequency, board.keys))
        counts = [n for _, n, _ in board.intervals.get(row_label(blind), ())[1:]]
        paths, _ = figures.gap_bars(_with_n(board.header[1:], counts), _values(board, vision),
                                    _values(board, blind), chance, title, stem, intervals)
        what = "Vision enabled − disabled" + (" and disabled − chance" if chance else "")
        drawn.append(figure_of(out, paths, f"{what}: {title} (Fig. 13; error bars: paired 95 % intervals)"))
    return drawn


def paired_intervals(a: RunData, b: RunData, keys: Sequence[str]) -> list[Interval]:
    """Return the paired scene-clustered 95 % interval of ``a − b`` per cell ``keys`` (points; None: none).

    Over the items both runs scored, one scene draw for both (:mod:`spatialbench.scoring.uncertainty`).
    """
    left, right = (r.result.rows[r.result.rows["score"].notna()] for r in (a, b))
    shared = set(left["id"]) & set(right["id"])
    tables = [a.spec.scoring.table(f[f["id"].isin(shared)]) for f in (left, right)]
    resampler = Resampler.for_rows(*(t.source for t in tables if t.source is not None))
    first, second = (table_draws(t, resampler) for t in tables)
    tests = {k: paired(first[k] - second[k]) for k in keys  # type: ignore[operator]
             if first.get(k) is not None and second.get(k) is not None}
    return [tests[k].ci95 if tests.get(k) is not None else None for k in keys]  # type: ignore[union-attr]


def _with_n(columns: Sequence[str], counts: Sequence[int]) -> list[str]:
    """Return the column labels over their n (``Obj. Count`` over ``n=25``); as given without counts."""
    if len(counts) != len(columns):
        return list(columns)
    return [f"{c}\nn={n}" for c, n in zip(columns, counts, strict=True)]


def breakdown_figures(out: Path, grids: Sequence[Grid], runs: Sequence[RunData]) -> list[Figure]:
    """Draw each breakdown grid: run rows as bars, their interval rows as error bars, chance as ticks.

    No ``n`` row is drawn. Chance rows are the baseline runs' and the random-guess row; a run's
    ``<row> 95 % CI`` row is drawn as its error bars (``Grid.intervals``), not as bars of its own.
    """
    chance_rows = {"random guess", *(row_label(r) for r in runs if r.kind == "baseline")}
    drawn = []
    for k, grid in enumerate(grids):
        own = dict(grid.intervals)
        shown = [(name, values) for name, values in grid.rows if name != "n" and not name.endswith(CI_ROW)]
        bars = [(name, values) for name, values in shown if name not in chance_rows]
        intervals = [list(own.get(name, (None,) * len(values))) for name, values in bars]
        chance = [(name, values) for name, values in shown if name in chance_rows]
        stem = out / "figures" / f"breakdown-{k + 1}-{slug(grid.title or 'table')}"
        paths = figures.grouped_bars(grid.header, bars, chance, grid.title or "", stem, intervals=intervals)
        drawn.append(figure_of(out, paths, grid.title or "Breakdown"))
    return drawn
