"""Score responses against items: extract → metric → per-item rows → the benchmark's tables.

Multiple-choice items are scored by exact-match accuracy, numerical items by MRA (VSI-Bench Sec. 3.1).
An item without a response scores 0 and is counted in ``missing_predictions``; a response without a
readable answer scores 0 and is counted in ``no_answer`` (both are reported, never hidden). A numerical
item whose ground truth is ≤ 0 or not a finite number is a data error: it gets no score (NaN), is left
out of every mean, and is listed with its id in ``data_errors``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from operator import attrgetter, is_, is_not, methodcaller
from typing import Any

import numpy as np
import pandas as pd

from spatialbench.records.bulk import paused_gc
from spatialbench.records.item import AnswerKind, Item
from spatialbench.records.item_table import ItemTable
from spatialbench.scoring.extraction import Extraction
from spatialbench.scoring.grouped import Table
from spatialbench.scoring.metrics import MRA_MODES, exact_match, ground_truth_error, mra_array
from spatialbench.scoring.row_frame import column, text_column
from spatialbench.scoring.rules import Extractors, ResponseScorer, ScoringRules

_PRUNED = methodcaller("get", "pruned")
_VALUE, _RULE = attrgetter("value"), attrgetter("rule")
_MISSING = Extraction(None, "missing_prediction")
"""The extraction of an item without a response (scores 0, counted in ``missing_predictions``)."""
_ITEM_TEXTS = frozenset(("id", "task", "dataset", "scene_id", "answer_kind", "ground_truth", "rule"))
"""Row columns whose cells are texts or None by construction (validated item fields, rule names)."""
ROW_COLUMNS = (
    "id", "task", "dataset", "scene_id", "answer_kind", "ground_truth",
    "prediction", "extracted", "rule", "answered", "missing", "score", "pruned", "n_options",
)


@dataclass(frozen=True)
class ScoreResult:
    """Everything one scoring run produces.

    Attributes:
        benchmark, extract, mra: what was scored (``ScoringRules.name``) and the modes used (printed with
            every table).
        rows: one row per item (columns ``ROW_COLUMNS``; ``score`` in [0, 1], NaN for data errors).
        table: the benchmark's table over all items.
        by_dataset: the table per source dataset.
        debiased: the table over unpruned items when every item says whether it was pruned, else None.
        no_answer: responses that yielded no answer (missing predictions not included).
        missing_predictions: ids of items that had no response.
        unmatched_predictions: response ids that match no item.
        data_errors: ``"item <id>: <problem>"`` for items that cannot be scored.
        skipped_rows: input rows not used (``"file:line: field 'x': message"``), set by the caller
            that read the files (annotations and predictions).
        warnings: problems with the inputs worth reading before the table (e.g. pruned ids that match
            no item), printed above it and stored in ``scores.json``.
        pruning: ``{"ids": ..., "matched": ...}`` when a pruned id list was given.
        item_count: items in the annotations when fewer are scored (a baseline that does not apply
            to some tasks); None means ``len(rows)``.
        not_applicable: table column keys the scored "model" cannot answer (shown ``-``, as in the paper).
        filtered_responses: ids whose scored text another tool's filter made from the raw response
            (lmms-eval's ``filtered_resps``); ``reconcile`` names them under "response text".
    """

    benchmark: str
    extract: str
    mra: str
    rows: pd.DataFrame
    table: Table
    by_dataset: dict[str, Table]
    debiased: Table | None
    no_answer: int
    missing_predictions: list[str] = field(default_factory=list)
    unmatched_predictions: list[str] = field(default_factory=list)
    data_errors: list[str] = field(default_factory=list)
    skipped_rows: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    pruning: dict[str, int] | None = None
    item_count: int | None = None
    not_applicable: tuple[str, ...] = ()
    filtered_responses: list[str] = field(default_factory=list)

    @property
    def modes_line(self) -> str:
        """One line naming the modes, e.g. ``extraction: official · MRA: official (<=)``."""
        comparison = {"official": "<=", "paper": "<"}.get(self.mra, self.mra)
        return f"extraction: {self.extract} · MRA: {self.mra} ({comparison})"


def _extract_all(items: ItemTable, texts: list[str | None], choice: np.ndarray, rules: ScoringRules,
                 mode: str) -> list[Extraction]:
    """Return each item's extraction (:data:`_MISSING` without a response): choice and number items apart.

    ``choice``: whether each item is multiple choice. Extractors are pure functions of (text, options |
    the question's key): model answers repeat a lot ("B", "2"), so each distinct input is read once; keys
    are built and looked up in C loops.
    """
    extractors = rules.extractors(mode)
    results = [_MISSING] * len(items)
    given = np.fromiter(map(is_not, texts, repeat(None)), bool, len(texts))
    for picked, read, cells in ((choice & given, _read_choices, items.column("options")),
                                (~choice & given, _read_numbers, items.column("question"))):
        positions = np.flatnonzero(picked).tolist()
        for position, found in zip(positions, read(_take(cells, positions), _take(texts, positions),
                                                   extractors), strict=True):
            results[position] = found
    return results


def _choice_flags(items: ItemTable) -> np.ndarray:
    """Return whether each item is multiple choice (a C loop: a comprehension took ~0.35 s a million)."""
    kinds = items.column("answer_kind")
    return np.fromiter(map(is_, kinds, repeat(AnswerKind.MULTIPLE_CHOICE)), bool, len(kinds))


def _read_choices(options: list[tuple[str, ...]], texts: list[str],
                  extractors: Extractors) -> list[Extraction]:
    keys = list(zip(texts, options, strict=True))
    found = {key: extractors.choice(*key) for key in dict.fromkeys(keys)}
    return list(map(found.__getitem__, keys))


def _read_numbers(questions: list[str], texts: list[str], extractors: Extractors) -> list[Extraction]:
    keys = list(zip(texts, map(extractors.question_key, questions), strict=True))
    first = dict(zip(reversed(keys), reversed(questions), strict=True))  # the question of its first item
    found = {key: extractors.number(key[0], question) for key, question in first.items()}
    return list(map(found.__getitem__, keys))


def _scores(items: ItemTable, values: list, choice: np.ndarray, mra: str) -> tuple[np.ndarray, list[str]]:
    """Score items: exact match once per distinct (answer, truth) pair, MRA on all numerical ones at once.

    ``choice``: whether each item is multiple choice.
    """
    scores = np.zeros(len(items))
    truths = items.column("ground_truth")
    picked, numeric = np.flatnonzero(choice).tolist(), np.flatnonzero(~choice).tolist()
    if picked:
        pairs = list(zip(_take(values, picked), _take(truths, picked), strict=True))
        matches = {pair: exact_match(*pair) for pair in set(pairs)}
        scores[picked] = list(map(matches.__getitem__, pairs))
    if not numeric:
        return scores, []
    numeric_truths = _take(truths, numeric)
    problems = {truth: ground_truth_error(truth) for truth in set(numeric_truths)}
    ids = items.column("id")
    errors = [f"item {ids[i]}: {problems[t]}" for i, t in zip(numeric, numeric_truths, strict=True)
              if problems[t]] if any(problems.values()) else []
    numbers = {truth: np.nan if problem else float(truth) for truth, problem in problems.items()}
    expected = list(map(numbers.__getitem__, numeric_truths))
    preds = [np.nan if value is None else value for value in _take(values, numeric)]
    scores[numeric] = mra_array(np.array(preds, dtype=float), np.array(expected, dtype=float), mra)
    return scores, errors


def _take(cells: list, positions: list[int]) -> list:
    """Return ``[cells[i] for i in positions]`` (a C loop)."""
    return list(map(cells.__getitem__, positions))


def score_items(
    items: Iterable[Item],
    responses: Mapping[str, str | None],
    rules: ScoringRules,
    *,
    extract: str | None = None,
    mra: str = "official",
) -> ScoreResult:
    """Score ``responses`` (item id → response text) on ``items``.

    Args:
        items: the benchmark items (ids unique).
        responses: raw model responses by item id; ids missing here score 0 as missing predictions.
        rules: the benchmark's extractors and table (``BenchmarkSpec.scoring``).
        extract: extraction mode (default: ``rules.default_mode``).
        mra: ``official`` (``<=``) or ``paper`` (``<``).

    Returns:
        A :class:`ScoreResult`. Never raises on response text.

    Raises:
        UnknownNameError / ValueError: unknown extraction or MRA mode.
    """
    with paused_gc():  # with 100k live items every full collection re-scans them all (records.bulk)
        return _score(ItemTable.of(items), responses, rules, extract, mra)


def _score(
    items: ItemTable, responses: Mapping[str, str | None], rules: ScoringRules, extract: str | None,
    mra: str,
) -> ScoreResult:
    extract = extract or rules.default_mode
    MRA_MODES.get(mra)
    texts = list(map(responses.get, items.column("id")))
    if rules.score_response is not None:  # a whole response scored at once (ScoringRules.score_response)
        values, read_by, scores = _whole_responses(items, texts, rules.score_response, mra)
        errors: list[str] = []
    else:
        choice = _choice_flags(items)
        extractions = _extract_all(items, texts, choice, rules, extract)
        values = list(map(_VALUE, extractions))
        scores, errors = _scores(items, values, choice, mra)
        read_by = list(map(_RULE, extractions))
    rows = build_rows(items, texts, values, read_by, scores)
    return result_from_rows(rules, extract, mra, rows, errors, _unmatched(items, responses, texts))


def _whole_responses(
    items: ItemTable, texts: list[str | None], scorer: ResponseScorer, mra: str
) -> tuple[list, list[str], np.ndarray]:
    """Values read, rules and scores of ``scorer`` applied to each item's response."""
    scored = [scorer(item, text, mra) for item, text in zip(items, texts, strict=True)]
    return [s[0] for s in scored], [s[1] for s in scored], np.array([s[2] for s in scored], dtype=float)


def _unmatched(items: ItemTable, responses: Mapping[str, str | None], texts: list[str | None]) -> set[str]:
    """Return the response ids that match no item; ``texts``: each item's response (None: none).

    Item ids are unique, so as many texts found as there are responses means every response matched (a
    count of ``texts``, not a second look-up per item: ~0.45 s a million); a None response is looked up.
    """
    if len(texts) - texts.count(None) == len(responses):
        return set()
    ids = items.column("id")
    if sum(map(responses.__contains__, ids)) == len(responses):
        return set()
    return set(responses.keys() - set(ids))


def build_rows(items: Iterable[Item], texts: list[str | None], values: list, read_by: list[str],
               scores: Sequence[float] | np.ndarray) -> pd.DataFrame:
    """Per-item score rows (columns ``ROW_COLUMNS``); ``answered`` / ``missing`` follow values / texts.

    ``items``: in the order of ``texts`` (an :class:`~spatialbench.records.item_table.ItemTable` is read
    as it is). Each column is converted as soon as it is made, so that one Python list of a million cells
    is alive at a time, not thirteen.
    """
    items = ItemTable.of(items)
    columns = _row_columns(items, texts, values, read_by, scores)
    if not items:  # a frame of empty lists, as before: float64 columns
        return pd.DataFrame(dict(columns), columns=list(ROW_COLUMNS))
    frame = {name: (text_column if name in _ITEM_TEXTS else column)(cells) for name, cells in columns}
    return pd.DataFrame(frame, columns=list(ROW_COLUMNS))


def _row_columns(items: ItemTable, texts: list[str | None], values: list, read_by: list[str],
                 scores: Sequence[float] | np.ndarray) -> Iterator[tuple[str, Any]]:
    """Yield ``(name, cells)`` for each of ``ROW_COLUMNS``, one column at a time (item fields as they are)."""
    for name in ("id", "task", "dataset", "scene_id"):
        yield name, items.column(name)
    kinds = {kind: kind.value for kind in AnswerKind}  # Enum.value is a slow property
    yield "answer_kind", list(map(kinds.__getitem__, items.column("answer_kind")))
    yield "ground_truth", items.column("ground_truth")
    yield "prediction", texts
    yield "extracted", values
    yield "rule", read_by
    yield "answered", _flags(map(is_not, values, repeat(None)), len(values))
    yield "missing", _flags(map(is_, texts, repeat(None)), len(texts))
    yield "score", np.asarray(scores, dtype=float)
    yield "pruned", _pruned(items.column("metadata"))
    # 0 for numerical items (chance-adjusted scores); a numpy column: no million ints for pandas to infer
    counts = map(len, items.column("options"))
    yield "n_options", np.fromiter(counts, dtype=np.int64, count=len(items)) if items else list(counts)


def _pruned(metadata: list[dict[str, Any]]) -> list[Any]:
    """Return each metadata's ``pruned`` (None when unset): ``dict.get`` in a C loop when all are dicts."""
    if set(map(type, metadata)) <= {dict}:
        return list(map(dict.get, metadata, repeat("pruned")))
    return list(map(_PRUNED, metadata))  # another mapping type: its own get


def _flags(flags: Iterator[bool], count: int) -> np.ndarray | list:
    """Return a bool column of ``count`` flags (an empty list when none: float64 when empty, as before)."""
    return np.fromiter(flags, dtype=bool, count=count) if count else []


def result_from_rows(rules: ScoringRules, extract: str, mra: str, rows: pd.DataFrame, errors: list[str],
                     unmatched: set[str]) -> ScoreResult:
    """Build a :class:`ScoreResult` (all tables) from per-item rows with columns ``ROW_COLUMNS``."""
    table = rules.table(rows)
    pruning_known = len(rows) > 0 and rows["pruned"].notna().all()
    debiased = rules.table(rows[~rows["pruned"].astype(bool)]) if pruning_known else None
    return ScoreResult(
        benchmark=rules.name,
        extract=extract,
        mra=mra,
        rows=rows,
        table=table,
        by_dataset=_by_dataset(rules, rows, table),
        debiased=debiased,
        no_answer=int((~rows["answered"] & ~rows["missing"]).sum()),
        missing_predictions=rows.loc[rows["missing"], "id"].tolist(),
        unmatched_predictions=sorted(unmatched),
        data_errors=errors,
    )


def _by_dataset(rules: ScoringRules, rows: pd.DataFrame, table: Table) -> dict[str, Table]:
    """Return the table of each dataset's rows; ``table`` (of all ``rows``) itself when all are one's.

    One dataset's group is every row: the same table, without a copy of a million rows or its intervals
    computed twice (they are kept per table object: :mod:`~spatialbench.scoring.uncertainty`).
    """
    names = rows["dataset"]
    if len(names) and names.notna().all() and (names == names.iloc[0]).all():
        return {str(names.iloc[0]): table}
    return {str(name): rules.table(group) for name, group in rows.groupby("dataset", sort=True)}
