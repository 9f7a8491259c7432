"""``stress_test.json``, its table (Markdown, CSV) and its figure (TsT-RF score beside chance per type).

Document (version 1): ``tasks: {task: {score, chance, chance_levels, n, scenes, interval, folds, format,
features, leak_check}}`` and ``items: {id: s}`` of the random folds at the top level (the official
protocol), the same for the scene-grouped folds under ``grouped``, plus ``k``, ``seed``, ``order_digest``
and ``overall``. ``interval`` is null for a type whose items come from fewer than 2 scenes;
``leak_check`` (:func:`~.forest.leak_record`): ``{feature_set, columns, folds, result, left_out}``.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

from spatialbench.analysis.shortcuts.forest import StressTest, TaskScore
from spatialbench.charts import grouped_bars
from spatialbench.scoring.render import Grid, Value, to_csv, to_markdown

VERSION = 1


def _defined(value: float) -> float | None:
    """None for the NaN of a fold kind that scored no type (one scene cannot make grouped folds)."""
    return None if math.isnan(value) else value


def fold_part(result: StressTest) -> dict[str, Any]:
    """Return one fold kind as the document stores it: ``tasks``, ``items``, ``overall``, ``skipped``.

    ``overall`` score and chance are null when the kind scored no type (every type skipped).
    """
    score, chance = map(_defined, result.overall)
    return {
        "tasks": {
            name: {key: value for key, value in asdict(task).items() if key != "task"}
            for name, task in result.tasks.items()
        },
        "items": result.items,
        "overall": {"score": score, "chance": chance, "n": len(result.items)},
        "skipped": result.skipped,
    }


def stress_document(random: StressTest, grouped: StressTest, source: dict[str, str]) -> dict[str, Any]:
    """Build the versioned document of both fold kinds (shapes in the module docstring)."""
    return {
        "version": VERSION,
        "analysis": "stress-test",
        **source,
        "k": random.k,
        "seed": random.seed,
        "order_digest": random.digest,
        **fold_part(random),
        "grouped": fold_part(grouped),
    }


def stress_table(random: StressTest, grouped: StressTest) -> Grid:
    """Tabulate each question type and ``overall``: n, chance, TsT random and grouped (percent, 95 % CI).

    A type scored by one fold kind only (the other skipped it, :func:`skipped_lines`) shows ``-`` for the
    other; its n and chance come from the kind that scored it.
    """
    rows: list[tuple[str, tuple[Value, ...]]] = []
    for name in [*random.tasks, *(n for n in grouped.tasks if n not in random.tasks)]:
        task, other = random.tasks.get(name), grouped.tasks.get(name)
        known = task or other
        assert known is not None  # the name comes from one of the two
        rows.append((name, (known.n, known.chance, task.score if task else None, _ci(task),
                            other.score if other else None, _ci(other), _leak_text(task, other))))
    score, chance = map(_defined, random.overall)
    grouped_score = _defined(grouped.overall[0])
    rows.append(("overall", (len(random.items), chance, score, None, grouped_score, None, None)))
    return Grid(
        ("n", "chance (item mean)", "TsT random", "95% CI", "TsT grouped", "95% CI", "leak check"),
        tuple(rows),
        "TsT-RF (text-only random forest, k-fold on the test set)",
    )


def _ci(task: TaskScore | None) -> str | None:
    if task is None:  # this fold kind skipped the type: "-"
        return None
    if task.interval is None:  # one scene: no interval (scoring.uncertainty.MIN_SCENES)
        return f"- ({task.scenes} scene)"
    return f"{task.interval[0]:.1f}-{task.interval[1]:.1f}"


def _leak_text(random: TaskScore | None, grouped: TaskScore | None) -> str:
    """Return ``passed (5 random, 5 grouped folds)``, ``; N official columns left out`` after; ``not run``."""
    checks = [(kind, t.leak_check) for kind, t in (("random", random), ("grouped", grouped))
              if t is not None and t.leak_check is not None]
    if not checks:
        return "not run"
    text = "passed (" + ", ".join(f"{check['folds']} {kind}" for kind, check in checks) + " folds)"
    left_out = len(checks[0][1]["left_out"])  # their names: stress_test.json
    return text + (f"; {left_out} official column{'s' if left_out > 1 else ''} left out" if left_out else "")


def chance_lines(random: StressTest, grouped: StressTest) -> list[str]:
    """Say what the chance column is; for a merged type (relative direction) its levels' chance too.

    VSI-Bench's Rel. Dir. column (``score``, ``profile``, the paper's Table 1: 36.1) is the mean of its
    three levels; TsT-RF tests them as one type over its items (the official code), so its chance is
    the item mean. Both are printed, each named.
    """
    lines = ["chance (item mean): per type the mean over its items of 1/options (numbers: the MRA of the "
             "training fold's mean answer)"]
    for name, task in {**grouped.tasks, **random.tasks}.items():
        if task.chance_levels:
            levels = ", ".join(f"{level} {value:.1f}" for level, value in task.chance_levels.items())
            mean = sum(task.chance_levels.values()) / len(task.chance_levels)
            lines.append(f"{name}: {task.chance:.1f} over its {task.n} items ({levels}); the mean of the "
                         f"levels, as the benchmark's table (Chance Level (Random)), is {mean:.1f}")
    return lines


def skipped_lines(random: StressTest, grouped: StressTest) -> list[str]:
    """One line per question type a fold kind could not split into k folds, saying why (type order)."""
    lines = []
    for name in sorted({*random.skipped, *grouped.skipped}):
        why = [f"{kind}: {result.skipped[name]}" for kind, result in (("random folds", random),
               ("grouped folds", grouped)) if name in result.skipped]
        lines.append(f"{name} not scored with k={random.k} ({'; '.join(why)})")
    return lines


def write_stress_test(
    out: Path, random: StressTest, grouped: StressTest, source: dict[str, str]
) -> list[Path]:
    """Write ``stress_test.json``, ``stress_test.md``, ``stress_test.csv`` and the figure into ``out``.

    Returns the paths written. Raises OSError when ``out`` cannot be written.
    """
    out.mkdir(parents=True, exist_ok=True)
    doc = out / "stress_test.json"
    document = stress_document(random, grouped, source)
    doc.write_text(json.dumps(document, indent=2, sort_keys=True, allow_nan=False) + "\n")
    table = stress_table(random, grouped)
    notes = [*chance_lines(random, grouped), *skipped_lines(random, grouped)]
    (out / "stress_test.md").write_text("\n".join([*to_markdown(table), "", *notes]) + "\n")
    (out / "stress_test.csv").write_text(to_csv(table))
    names = list(random.tasks)
    figure = grouped_bars(
        names,
        [
            ("TsT-RF random folds", [random.tasks[n].score for n in names]),
            (
                "TsT-RF grouped by scene",
                [grouped.tasks[n].score if n in grouped.tasks else None for n in names],
            ),
        ],
        [("chance", [random.tasks[n].chance for n in names])],
        "Text-only random forest trained on the test set (TsT-RF)",
        out / "stress_test",
        scale=1.0,
    )
    return [doc, out / "stress_test.md", out / "stress_test.csv", *figure]
