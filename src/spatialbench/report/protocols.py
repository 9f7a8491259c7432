"""What keeps leaderboard rows apart, and the n and 95 % interval each cell shows (issue 21).

* **Protocol** — MMSI-Video-Bench runs of the Uniform-50 and the Sufficient-Coverage setting are two
  tracks (Table 2 reports them separately): each is its own "Models" section, ranked apart.
* **Map-only cognitive-map runs** (strategy ``cognitive-map``) answer with a map, not an answer: they sit
  in their own unranked section.
* **Item sets** — a model run scored on other items than the first run of its section is marked: its
  rank reads ``1 [other items: n]``, so rows on different questions are never read as one ranking.
* Every cell carries its n and its scene-clustered bootstrap 95 % interval
  (:mod:`spatialbench.scoring.uncertainty`); cells with fewer than 30 items are marked.
"""

from __future__ import annotations

from collections.abc import Sequence

from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.report.runs import RunData
from spatialbench.scoring.uncertainty import SMALL, Interval, table_ci

SETTING_TITLES = {"uniform-50": "Uniform-50", "sufficient-coverage": "Sufficient-Coverage"}
MAP_ONLY = "cognitive-map"
MAPS_SECTION = "Cognitive maps (map only, not ranked)"


def protocol(run: RunData) -> str:
    """Return the run's protocol title (MMSI-Video-Bench setting), ``""`` for a benchmark without one."""
    # a run that names no setting ran the benchmark's default one (MMSI-Video-Bench: uniform-50)
    setting = {**run.spec.defaults.options, **run.folder.options}.get("setting")
    return SETTING_TITLES.get(str(setting), str(setting)) if setting else ""


def footnote(spec: BenchmarkSpec) -> str:
    """Return the protocols the leaderboard footnote names: ``"MMSI-Video-Bench Uniform-50 / ..."``.

    ``""`` for a benchmark whose spec declares none (``BenchmarkSpec.protocols``): no protocol sentence.
    """
    return f"{spec.display_name} {' / '.join(spec.protocols)}" if spec.protocols else ""


def is_map_only(run: RunData) -> bool:
    """Return True for a ``cognitive-map`` run: its replies are maps, not answers (not ranked)."""
    return run.config.strategy.name == MAP_ONLY


def section_title(run: RunData) -> str:
    """Return the leaderboard section of a model or blind run: ``Models`` or ``Models · <protocol>``."""
    if is_map_only(run):
        return MAPS_SECTION
    name = protocol(run)
    return f"Models · {name}" if name else "Models"


def item_marks(runs: Sequence[RunData]) -> dict[int, str]:
    """Return ``{id(run): " [other items: n]"}`` for runs scored on other items than their section's first."""
    marks: dict[int, str] = {}
    first: dict[str, set[str]] = {}
    for run in runs:
        ids = set(run.result.rows["id"].astype(str))
        if run.kind not in ("model", "blind"):
            continue  # baselines and people answer what they can (chance-random: no numerical items)
        reference = first.setdefault(section_title(run), ids)
        if ids != reference:
            marks[id(run)] = f" [other items: {len(ids)}]"
    return marks


def cell_intervals(run: RunData, keys: Sequence[str]) -> tuple[tuple[Interval, int, bool], ...]:
    """Return ``(ci95, n, small)`` for Avg. then each cell ``keys`` (small: fewer than 30 items)."""
    table = run.result.table
    ci = table_ci(table)
    total = sum(n for part, n in table.counts.items() if part not in table.other_tasks)  # what Avg. covers
    cells = {c.key: c.n for c in table.cells}
    # a baseline that does not apply to some columns has no Avg. (tables._average): its cell stays "-"
    out = [(None, 0, False) if run.result.not_applicable else (ci.get("overall"), total, 0 < total < SMALL)]
    out += [(ci.get(k), cells.get(k, 0), 0 < cells.get(k, 0) < SMALL) for k in keys]
    return tuple(out)
