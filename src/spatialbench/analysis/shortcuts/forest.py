"""TsT-RF: one random forest per question type, k-fold on the test set itself (Brown et al., Sec. 3.2).

Deterministic: rows sorted by id (the order's SHA-256 recorded and re-checked), fixed seeds and
``n_jobs`` (a forest's output does not depend on it), fold plans from seeded splitters.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from spatialbench.analysis.shortcuts.features import FeatureSet
from spatialbench.analysis.shortcuts.folds import constant_baseline, encode, fold_plan, forest_scores
from spatialbench.analysis.shortcuts.leak import LeakError, check_label_invariance
from spatialbench.analysis.shortcuts.sets import LEAKY_FEATURE_SETS, feature_set
from spatialbench.analysis.shortcuts.table import order_digest, question_table
from spatialbench.errors import SpatialBenchError
from spatialbench.records import Item
from spatialbench.records.progress import Progress, Tally
from spatialbench.records.wording import plural
from spatialbench.scoring.uncertainty import MIN_SCENES


class StressTestError(SpatialBenchError, ValueError):
    """A stress-test that cannot run as asked (unknown fold kind, a row order that moved)."""


@dataclass(frozen=True)
class TaskScore:
    """One question type's result.

    ``score`` in percent (mean over folds, as the official code), ``chance`` the mean over the type's
    items of what chance scores on each (percent: VSI-Bench's relative direction is one type here, so
    its chance weighs its levels by their items, :func:`level_chance` by level), ``interval`` the 95 %
    normal interval of the per-item hits (percent; None when the items come from fewer than 2 scenes),
    ``n`` items, ``scenes`` their scenes, ``folds`` the per-fold scores, ``leak_check`` what
    :func:`leak_record` says (None when not run).
    """

    task: str
    format: str
    n: int
    score: float
    chance: float
    interval: tuple[float, float] | None
    folds: list[float]
    features: list[str]
    scenes: int = 0
    chance_levels: dict[str, float] = field(default_factory=dict)
    leak_check: dict[str, Any] | None = None


@dataclass(frozen=True)
class StressTest:
    """Result of one fold kind: per-type scores, per-item bias score s(x) in [0, 1], the row-order digest.

    ``chances``: per item what chance scores on it, as the ``chance`` column (1/options for multiple
    choice; for numbers the MRA of its training fold's mean answer, the constant guess).
    """

    folds: str
    k: int
    seed: int
    tasks: dict[str, TaskScore]
    items: dict[str, float]
    digest: str
    skipped: dict[str, str] = field(default_factory=dict)
    chances: dict[str, float] = field(default_factory=dict)

    def above_chance(self) -> dict[str, float]:
        """Per item s(x) minus its chance (multiple choice s - 1/options; numbers MRA - the mean's MRA)."""
        return {i: s - self.chances[i] for i, s in self.items.items()}

    @property
    def overall(self) -> tuple[float, float]:
        """(mean TsT score, mean chance) over question types, percent (VSI-Bench's Avg convention)."""
        tasks = list(self.tasks.values())
        return (
            (float(np.mean([t.score for t in tasks])), float(np.mean([t.chance for t in tasks])))
            if tasks
            else (float("nan"), float("nan"))
        )


def _interval(hits: np.ndarray, scenes: int) -> tuple[float, float] | None:
    """Return the normal interval of the hits; None from one scene (it speaks for that scene alone)."""
    if scenes < MIN_SCENES:
        return None
    mean, half = hits.mean(), 1.96 * hits.std(ddof=1) / np.sqrt(len(hits)) if len(hits) > 1 else 0.0
    return (100.0 * max(mean - half, 0.0), 100.0 * min(mean + half, 1.0))


_LEVELS = {"easy": 0, "medium": 1, "hard": 2}


def level_chance(frame: pd.DataFrame, chance: np.ndarray) -> dict[str, float]:
    """Chance (percent) per ``difficulty`` level of a merged type (relative direction), {} for others."""
    levels = frame["difficulty"].astype(str) if "difficulty" in frame else pd.Series("", index=frame.index)
    if not levels.ne("").any():
        return {}
    means = pd.Series(chance, index=frame.index).groupby(levels.to_numpy()).mean()
    order = sorted((str(level) for level in means.index if level), key=lambda lv: (_LEVELS.get(lv, 3), lv))
    return {level: 100.0 * float(means[level]) for level in order}


def leak_record(fs: FeatureSet, folds: int) -> dict[str, Any]:
    """Return what the leak check covered: the set, its columns, the folds checked, and the result.

    ``left_out``: the columns of the type's official set (:data:`LEAKY_FEATURE_SETS`) this set drops
    because they read the answer (the check refuses them); ``[]`` for a type whose official set is clean.
    """
    official = LEAKY_FEATURE_SETS.get(fs.name)
    left_out = [c for c in official.columns if c not in fs.columns] if official is not None else []
    name = fs.name if fs.name != "*" else f"generic {fs.format}"
    return {"feature_set": name, "columns": len(fs.columns), "folds": folds, "result": "passed",
            "left_out": left_out}


def _task(
    frame: pd.DataFrame, fs: FeatureSet, kind: str, k: int, seed: int, n_jobs: int, leak_check: bool
) -> tuple[TaskScore, dict[str, float], dict[str, float]]:
    cols = list(fs.columns)
    hits, scores, chance, per_fold = np.zeros(len(frame)), np.zeros(len(frame)), np.zeros(len(frame)), []
    for tr, te in fold_plan(frame, kind, k, seed, fs.format):
        train, test = frame.iloc[tr], frame.iloc[te]
        with warnings.catch_warnings():  # min-max of a fold whose keys are all unseen: all-NaN, kept NaN
            warnings.simplefilter("ignore", RuntimeWarning)
            # Every fold, not the first only: invariance is a property of the feature maps, but a map may
            # read a held-out answer in a branch only some folds reach (a key unseen in its training
            # fold). Cheap: one fit and two transforms a fold; the 3-scene demo's 25 checks (5 types x 5
            # folds) cost 0.37 s of its 6.3 s stress-test CPU; its first folds alone cost 0.07 s.
            if leak_check and (leaked := check_label_invariance(fs, train, test)):
                raise LeakError(fs.name if fs.name != "*" else str(frame["task"].iloc[0]), leaked)
            maps = fs.fit(train)
            x_train, x_test = encode(fs.transform(maps, train)[cols], fs.transform(maps, test)[cols])
        hits[te], scores[te] = forest_scores(x_train, train, x_test, test, fs.format, seed, n_jobs)
        chance[te] = constant_baseline(train, test, fs.format)
        per_fold.append(100.0 * float(hits[te].mean()))
    task, scenes = str(frame["task"].iloc[0]), int(frame["scene"].nunique())
    score = TaskScore(
        task,
        fs.format,
        len(frame),
        float(np.mean(per_fold)),
        100.0 * float(chance.mean()),
        _interval(hits, scenes),
        per_fold,
        cols,
        scenes,
        level_chance(frame, chance),
        leak_record(fs, len(per_fold)) if leak_check else None,
    )
    ids = frame["id"]
    return score, dict(zip(ids, scores.tolist(), strict=True)), dict(zip(ids, chance.tolist(), strict=True))


def _unsplittable(rows: pd.DataFrame, format: str, folds: str, k: int) -> str | None:
    """Why ``k`` folds of ``folds`` cannot be made of a type's rows, None when they can."""
    groups = rows["scene"].nunique() if folds == "grouped" else len(rows)
    if min(len(rows), groups) < k:
        unit = "scene" if folds == "grouped" else "row"
        return f"{plural(len(rows), 'item')} in {plural(groups, unit)} < k={k}"
    most = int(rows["gt_idx"].value_counts().max()) if format == "mc" and folds == "random" else k
    if most < k:  # StratifiedKFold needs one answer with k members, else it raises
        return f"every answer occurs fewer than k={k} times (most often: {most})"
    return None


def _not_applicable(questions: int, first_ids: dict[str, str]) -> StressTestError:
    """No question type has a question with one number or option (streaming count: a list per question)."""
    kinds = ", ".join(f"{task}, e.g. item {first}" for task, first in first_ids.items())
    return StressTestError(f"stress-test does not apply to these {questions} questions: none has one number "
                           f"or option as its answer ({kinds}); the forest learns one answer per question")


def stress_test(
    items: Iterable[Item] | pd.DataFrame,
    folds: str = "random",
    k: int = 5,
    seed: int = 42,
    sets: dict[str, FeatureSet] | None = None,
    n_jobs: int = 1,
    leak_check: bool = True,
    progress: Progress | None = None,
) -> StressTest:
    """Run TsT-RF on every question type of ``items``.

    Args:
        items: benchmark items, or a :func:`question_table` frame.
        folds: ``"random"`` (the official splitters) or ``"grouped"`` (by scene).
        k: number of folds (official: 5).
        seed: seed of the splitters and forests (official: 42).
        n_jobs: forest threads (the result does not depend on it).
        sets: question type -> feature set (default the leak-free official sets).
        leak_check: run :func:`check_label_invariance` on every fold of each type before its forest.
        progress: called with (question types done, question types).

    Raises:
        StressTestError: an unknown ``folds``; no question with one answer. LeakError: a leaky feature.
    """
    if folds not in ("random", "grouped"):
        raise StressTestError(f"unknown fold kind {folds!r}; use random or grouped")
    table = items if isinstance(items, pd.DataFrame) else question_table(items)
    digest = order_digest(table["id"].astype(str)) if len(table) else order_digest([])
    tasks, scores, skipped, chances, unanswerable = {}, {}, {}, {}, {}
    names = sorted(table["task"].unique()) if len(table) else []
    for task in Tally(len(names), progress).each(names):
        rows = table[table["task"] == task]
        fs = feature_set(task, str(rows["format"].iloc[0]), sets)
        rows = fs.keys(rows.dropna(subset=["gt_num"]) if fs.format == "num" else rows).reset_index(drop=True)
        if rows.empty:  # no question of the type has one answer (a list per question: streaming count)
            unanswerable[task] = str(table.loc[table["task"] == task, "id"].iloc[0])
            skipped[task] = "no question has one number or option as its answer"
        elif (why := _unsplittable(rows, fs.format, folds, k)) is None:
            tasks[task], found, chance = _task(rows, fs, folds, k, seed, n_jobs, leak_check)
            scores.update(found)
            chances.update(chance)
        else:
            skipped[task] = why
    if unanswerable and len(unanswerable) == len(names):
        raise _not_applicable(len(table), unanswerable)
    if order_digest(table["id"].astype(str)) != digest:
        raise StressTestError("the row order changed during the stress-test")
    return StressTest(folds, k, seed, tasks, dict(sorted(scores.items())), digest, skipped,
                      dict(sorted(chances.items())))
