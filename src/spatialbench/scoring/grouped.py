"""One grouped-table combinator: one metric (mean score, percent) per group of scored questions.

A table is a sequence of :class:`Group` (a key, a label and conditions on columns of the scored rows)
over a frame of scored rows, one per question (``score`` in [0, 1], ``answered``, the grouping key
``by`` — the ``task`` unless told otherwise —, and whatever columns the conditions name; rows whose
score is NaN are data errors and are left out). How a group's questions are weighted follows
inspect_ai's ``grouped()``:

* ``questions`` — a group's score is the mean over its questions, the table's ``average`` the mean over
  the questions of all its groups (MMSI-Video-Bench "Overall", ReMindView-Bench);
* ``columns`` — a group's score is the mean of its parts' means (the values of ``by`` among its questions:
  VSI-Bench Rel. Dir. = mean of easy / medium / hard, as the official code computes it), the ``average``
  the mean of the group scores present (VSI-Bench Avg.).

With ``weight`` (a column of positive numbers), every mean over questions is weighted by it
(``Σ w·score / Σ w``): SITE's chance-adjusted accuracy is such a mean (``score = (hit − 1/n) / (1 − 1/n)``,
``w = 1 − 1/n``, so the mean is ``Σ(hit − 1/n) / Σ(1 − 1/n)``).

Each cell also carries its random-guess baseline (the mean of ``1 / n_options`` over its questions, when
the rows carry ``n_options``) and its extraction failures (counted wrong), so breakdown tables and score
tables are one type, rendered by :mod:`spatialbench.scoring.render`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import cached_property
from typing import Any, Literal

import numpy as np
import pandas as pd
import pyarrow.compute as pc
from pandas.core.groupby import SeriesGroupBy

from spatialbench.records.item import Item
from spatialbench.scoring.row_frame import arrow_texts

Weighting = Literal["questions", "columns"]
Condition = tuple[str, tuple[Any, ...]]
"""``(column, allowed values)``: a row is in the group when its ``column`` holds one of the values."""


@dataclass(frozen=True)
class Group:
    """One group of a table: the rows meeting every condition (no condition: every row).

    Attributes:
        key: name in JSON (VSI-Bench's official task names); label: header as printed.
        where: conditions, all of which a row must meet.
    """

    key: str
    label: str
    where: tuple[Condition, ...] = ()

    @classmethod
    def of(cls, label: str, key: str | None = None, /, **conditions: Any) -> Group:
        """Group ``label`` (key = label unless given); a condition value may be one value or a tuple/list."""
        where = tuple(
            (column, tuple(value) if isinstance(value, (tuple, list)) else (value,))
            for column, value in conditions.items()
        )
        return cls(key if key is not None else label, label, where)

    def mask(self, frame: pd.DataFrame) -> pd.Series:
        """Boolean mask of the rows of ``frame`` in the group (a column the frame lacks matches nothing)."""
        chosen = pd.Series(True, index=frame.index)
        for column, values in self.where:
            chosen &= frame[column].isin(values) if column in frame else False
        return chosen

    def parts(self, by: str) -> tuple[Any, ...]:
        """Return the values of ``by`` the group names (empty when it sets no condition on ``by``)."""
        return next((values for column, values in self.where if column == by), ())

    def only_by(self, by: str) -> bool:
        """Say whether the group selects by ``by`` alone (its rows are those of its parts)."""
        return bool(self.where) and all(column == by for column, _ in self.where)


@dataclass(frozen=True)
class Cell:
    """A group's score.

    Attributes:
        key / group: the group's key and label. n: scored questions in it.
        accuracy: mean score in percent (accuracy for multiple choice, MRA for numerical questions),
            None for an empty group.
        chance: random-guess baseline in percent (mean of 1 / options), None when unknown or empty.
        failures: questions whose answer could not be extracted (counted wrong).
        parts: the values of the grouping key the group names; partial: some of them have no question.
        metric: what ``accuracy`` measures — ``accuracy`` (multiple choice), ``MRA`` (numerical questions),
            ``accuracy / MRA`` (both kinds), ``""`` for an empty group.
    """

    key: str
    group: str
    n: int
    accuracy: float | None
    chance: float | None
    failures: int
    parts: tuple[Any, ...] = ()
    partial: bool = False
    metric: str = ""


@dataclass(frozen=True)
class Table:
    """A titled row of cells and what its average covers.

    Attributes:
        title: printed above a breakdown. cells: one per group, in display order.
        weighting: ``questions`` or ``columns`` (module docstring). average: percent, None when no cell has
            questions. task_scores / counts: percent and number of scored questions per value of the
            grouping key (the task). other_tasks: values of the grouping key no group names.
        groups / by / source: the groups, grouping key and scored rows (only the columns they read, with
            ``id``, ``scene_id`` and ``score``) the table was computed from: what
            :mod:`spatialbench.scoring.uncertainty` resamples. weight: the column weighting each question
            in its means (None: every question counts 1).
    """

    title: str
    cells: tuple[Cell, ...]
    weighting: Weighting
    average: float | None
    task_scores: dict[str, float]
    counts: dict[str, int]
    other_tasks: tuple[str, ...] = ()
    groups: tuple[Group, ...] = dataclass_field(default=(), compare=False, repr=False)
    by: str = "task"
    source: pd.DataFrame | None = dataclass_field(default=None, compare=False, repr=False)
    weight: str | None = None

    @property
    def scores(self) -> dict[str, float | None]:
        """Cell key → percent (None for a group without questions)."""
        return {c.key: c.accuracy for c in self.cells}

    @property
    def average_label(self) -> str:
        """The average's header: ``Avg.`` (columns), ``Avg. (question-weighted)``, or ``Avg. (<weight>)``."""
        if self.weighting == "columns":
            return "Avg."
        return f"Avg. ({self.weight})" if self.weight else "Avg. (question-weighted)"

    @property
    def averaged_over(self) -> tuple[str, ...]:
        """Keys of the cells with questions (those in ``average``)."""
        return tuple(c.key for c in self.cells if c.accuracy is not None)

    @property
    def missing(self) -> tuple[str, ...]:
        """Keys of the cells without questions."""
        return tuple(c.key for c in self.cells if c.accuracy is None)

    @property
    def partial(self) -> tuple[str, ...]:
        """Keys of the cells missing one of their parts (a VSI-Bench Rel. Dir. sub-type)."""
        return tuple(c.key for c in self.cells if c.partial)

    @cached_property
    def group_masks(self) -> tuple[np.ndarray, ...]:
        """Each of ``groups``' rows of ``source`` (read-only bool arrays, in order), made once per table.

        One table's intervals read them three times (:mod:`~spatialbench.scoring.uncertainty`): a million
        rows, ~5 ms a condition each time. Raises ValueError for a table made without its rows.
        """
        if self.source is None:
            raise ValueError(f"table {self.title!r} keeps no rows to resample")
        return _Conditions(self.source).masks(self.groups)  # as grouped() makes its cells' masks

    def cell(self, group: str) -> Cell:
        """Return the cell labelled ``group``; KeyError naming the known groups otherwise."""
        for cell in self.cells:
            if cell.group == group:
                return cell
        raise KeyError(f"no group {group!r} in table {self.title!r}; groups: {[c.group for c in self.cells]}")


def grouped(
    rows: pd.DataFrame,
    groups: Sequence[Group],
    *,
    weighting: Weighting = "questions",
    title: str = "",
    by: str = "task",
    weight: str | None = None,
) -> Table:
    """Score every group of ``groups`` over ``rows`` into one table (module docstring).

    ``weight``: the column of per-question weights of every mean over questions (None: unweighted).
    Never raises for groups without questions; rows with a NaN score are left out.
    """
    scored = _scored(rows, groups, by, weight)
    per_part = scored.groupby(by, sort=True)["score"]  # its keys factorized once: counts and means
    means = _group_means(scored, by, weight, per_part)
    masks = _Conditions(scored).masks(groups)
    cells = tuple(_cell(scored, group, mask, weighting, by, means, weight)
                  for group, mask in zip(groups, masks, strict=True))
    covered = {str(p) for group in groups for p in group.parts(by)}
    table = Table(
        title=title,
        cells=cells,
        weighting=weighting,
        average=_average(scored, masks, cells, weighting, weight),
        task_scores={k: 100.0 * m for k, m in means.items()},
        counts={str(k): int(v) for k, v in per_part.size().items()},
        other_tasks=tuple(sorted(set(means) - covered)),
        groups=tuple(groups),
        by=by,
        source=_source(scored, groups, by, weight),
        weight=weight,
    )
    # the masks of the cells are those of the intervals (same rows): kept where cached_property keeps them
    vars(table)["group_masks"] = masks
    return table


class _Conditions:
    """The masks of groups over one frame: each Arrow text column a condition reads is encoded once.

    ``Group.mask`` looks each row's text up per group (pandas ``isin``: ~8 ms a million rows); here the
    same ``isin`` is asked of the column's distinct values and each row takes its value's answer.
    """

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame
        self.coded: dict[str, tuple[pd.Series, np.ndarray]] = {}

    def masks(self, groups: Sequence[Group]) -> tuple[np.ndarray, ...]:
        """Return each group's ``Group.mask`` of the frame (read-only bool arrays, in order)."""
        masks = []
        for group in groups:
            chosen = np.ones(len(self.frame), dtype=bool)
            for column, values in group.where:
                chosen &= self.isin(column, values)
            chosen.setflags(write=False)
            masks.append(chosen)
        return tuple(masks)

    def isin(self, column: str, values: tuple[Any, ...]) -> np.ndarray:
        if column not in self.frame:
            return np.zeros(len(self.frame), dtype=bool)
        series = self.frame[column]
        if not isinstance(series.array, pd.arrays.ArrowStringArray):
            return series.isin(values).to_numpy(dtype=bool)
        if column not in self.coded:
            encoded = pc.dictionary_encode(arrow_texts(series), null_encoding="encode")
            distinct = pd.Series(encoded.dictionary, dtype=series.dtype)
            self.coded[column] = (distinct, encoded.indices.to_numpy())
        distinct, codes = self.coded[column]
        return distinct.isin(values).to_numpy(dtype=bool)[codes]


def _scored(rows: pd.DataFrame, groups: Sequence[Group], by: str, weight: str | None) -> pd.DataFrame:
    """Return the rows with a score, only the columns the table reads.

    A million rows: a text column nothing reads is not copied for each cell.
    """
    wanted = ["id", "scene_id", "score", "answered", "n_options", by, *([weight] if weight else []),
              *(column for g in groups for column, _ in g.where)]
    columns = [c for c in dict.fromkeys(wanted) if c in rows]
    valid = rows["score"].notna()
    return rows[columns] if valid.all() else rows.loc[valid, columns]  # all scored: no copy of each column


def _mean(chosen: pd.DataFrame, weight: str | None) -> float:
    """Mean score of ``chosen`` (non-empty), weighted by column ``weight`` when given."""
    if weight is None:
        return float(chosen["score"].mean())
    return float((chosen["score"] * chosen[weight]).sum() / chosen[weight].sum())


def _group_means(scored: pd.DataFrame, by: str, weight: str | None,
                 per_part: SeriesGroupBy | None = None) -> dict[str, float]:
    """Mean score per value of ``by`` (sorted); unweighted by pandas' group mean, to the official bits.

    ``per_part``: ``scored.groupby(by, sort=True)["score"]`` when the caller made it.
    """
    if weight is None:
        per_part = scored.groupby(by, sort=True)["score"] if per_part is None else per_part
        return {str(k): float(v) for k, v in per_part.mean().items()}
    return {str(k): _mean(part, weight) for k, part in scored.groupby(by, sort=True)}


def _source(scored: pd.DataFrame, groups: Sequence[Group], by: str, weight: str | None) -> pd.DataFrame:
    """Return the columns of ``scored`` a resample of the table reads (a frame of a few columns, not all)."""
    wanted = ["id", "scene_id", "score", by, *([weight] if weight else []),
              *(column for g in groups for column, _ in g.where)]
    return scored[[c for c in dict.fromkeys(wanted) if c in scored]]


def _cell(scored: pd.DataFrame, group: Group, mask: np.ndarray, weighting: Weighting, by: str,
          means: dict[str, float], weight: str | None) -> Cell:
    # a group of parts alone takes its part means from the table's: its rows' parts are not read (texts)
    labels = [] if group.only_by(by) else [by]
    needed = ["score", "answered", "n_options", *labels, *([weight] if weight else [])]
    chosen = scored.loc[mask, [c for c in dict.fromkeys(needed) if c in scored]]
    parts = group.parts(by)
    present = _part_means(chosen, group, by, means, weight)
    accuracy: float | None = None
    if len(chosen) and weighting == "columns":
        accuracy = 100.0 * sum(present) / len(present)
    elif len(chosen):
        accuracy = 100.0 * _mean(chosen, weight)
    return Cell(
        key=group.key,
        group=group.label,
        n=len(chosen),
        accuracy=accuracy,
        chance=_chance(chosen),
        failures=int((~chosen["answered"].astype(bool)).sum()),
        parts=parts,
        partial=bool(present) and len(present) < len(parts),
        metric=_metric(chosen),
    )


def _metric(chosen: pd.DataFrame) -> str:
    """Return the metric of a group's questions: MRA for numerical ones (``n_options`` 0), else accuracy."""
    if not len(chosen) or "n_options" not in chosen:
        return "" if not len(chosen) else "accuracy"
    numerical = chosen["n_options"] == 0
    return "MRA" if numerical.all() else "accuracy / MRA" if numerical.any() else "accuracy"


def _part_means(chosen: pd.DataFrame, group: Group, by: str, means: dict[str, float],
                weight: str | None) -> list[float]:
    """Return the means of the group's parts present.

    The table's per-part means, in the group's order, when the group selects by ``by`` alone (the official
    VSI-Bench sums, to the last bit), else means computed over the group's questions.
    """
    if group.only_by(by):
        return [means[str(p)] for p in group.parts(by) if str(p) in means]
    return list(_group_means(chosen, by, weight).values())


def _chance(chosen: pd.DataFrame) -> float | None:
    if "n_options" not in chosen or not len(chosen) or not (chosen["n_options"] > 0).all():
        return None
    return 100.0 * float((1.0 / chosen["n_options"]).mean())


def _average(
    scored: pd.DataFrame, masks: Sequence[np.ndarray], cells: Sequence[Cell], weighting: Weighting,
    weight: str | None,
) -> float | None:
    if weighting == "columns":
        present = [c.accuracy for c in cells if c.accuracy is not None]
        return sum(present) / len(present) if present else None
    covered = np.zeros(len(scored), dtype=bool)
    for mask in masks:
        covered |= mask
    chosen = scored[covered]
    return 100.0 * _mean(chosen, weight) if len(chosen) else None


def with_items(rows: pd.DataFrame, items: Iterable[Item]) -> pd.DataFrame:
    """Add ``n_options`` and every metadata field of the items to their score rows (joined on ``id``).

    Rows of ids not among ``items`` are left out; a metadata field named like a row column is not added.
    """
    by_id = {item.id: item for item in items}
    kept = rows[rows["id"].astype(str).isin(by_id)]
    chosen = [by_id[str(i)] for i in kept["id"]]
    extra: dict[str, list[Any]] = {"n_options": [len(item.options) for item in chosen]}
    for field in sorted({k for item in chosen for k in item.metadata} - set(rows.columns)):
        extra[field] = [item.metadata.get(field) for item in chosen]
    return kept.assign(**extra)


def per_value(title: str, frame: pd.DataFrame, column: str) -> Table:
    """One group per value of ``column`` (ascending; rows without a value are left out)."""
    values = sorted(v for v in frame[column].dropna().unique()) if column in frame else []
    return grouped(frame, [Group.of(str(v), **{column: v}) for v in values], title=title)
