"""Chance-level baselines (VSI-Bench Sec. 4.1): "models" that need no media, scored like any model.

* ``chance-random`` — the expected accuracy of picking an option uniformly at random: each
  multiple-choice item scores ``1 / number of options`` (its expectation, not one random draw), so a
  task scores the mean of ``1/n`` over its items. Not applicable to numerical items, which are left
  out (their columns show ``-``, and Avg. says which tasks it covers, as the paper prints ``-``).
* ``chance-frequency`` — "the highest performance MLLMs would achieve by always selecting the most
  frequent answer for each task", with the answer defined per task kind as the VSI-Bench authors
  describe it (issue 10), per ``question_type`` (so Rel. Dir. is the mean of its easy / medium / hard
  sub-types, like every model's Rel. Dir.):

  - numerical tasks: the best single constant over all real values — the continuous optimum of mean MRA
    (:mod:`spatialbench.scoring.chance_constant`), which gives the paper's 32.0 / 29.9 / 33.1 for abs.
    distance / size / room on the official data (issue 27);
  - multiple-choice tasks whose items all offer the same option texts (VSI-Bench: the three Rel. Dir.
    sub-types, "left" / "right" / "back" / "front-left" ...): the most frequent correct answer *text*,
    answered by its letter in each item (letters are balanced, texts are not: the paper's 47.9 is
    consistent only with texts);
  - other multiple-choice tasks (options differ per item: Rel. Dist., Route Plan, Appr. Order): the most
    frequent correct letter (ties: the smallest), which the paper's 25.1 / 28.4 / 25.2 reflect.

  On the official data the authors report 61.8 / 31.9 / 29.9 / 33.1 for counting / abs. distance / size /
  room; the paper's row is 62.1, 32.0, 29.9, 33.1, 25.1, 47.9, 28.4, 25.2.
  - a task whose ground truths are lists of counts (VSI-SUPER's streaming count, one per query time):
    per query position the continuous optimum over the counts expected there, answered as a list
    (``chance-frequency-restricted`` too).
* ``chance-frequency-restricted`` — as ``chance-frequency``, but the constant is restricted to the task's
  ground-truth values (every one tried; ties: the smallest), the rule before issue 27 (0.1–0.4 below the
  paper's numerical cells).
* ``chance-frequency-string`` — the literal reading kept as an alternative: per task the most frequent
  ``ground_truth`` string (a letter for multiple choice, a number for numerical tasks; ties: the highest
  MRA, else the smallest letter). It misses the paper on the numerical tasks (most frequent value rather
  than best value) and on Rel. Dir. (letters rather than texts).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace

import numpy as np

from spatialbench.records.item import AnswerKind, Item
from spatialbench.registry import Registry
from spatialbench.scoring.chance_constant import continuous_best_constant
from spatialbench.scoring.metrics import ground_truth_error, mra_array
from spatialbench.scoring.rules import PER_TASK, ScoringRules
from spatialbench.scoring.scorer import ScoreResult, build_rows, result_from_rows, score_items

Baseline = Callable[..., ScoreResult]
"""``baseline(items, rules, *, mra) -> ScoreResult``: a chance level computed from the items alone."""
#: ``chance-random`` / ``chance-frequency``; ``spatialbench run --model chance-...`` and
#: ``spatialbench baseline`` both score through this registry (no back end is built for them)
BASELINES: Registry[Baseline] = Registry("baseline model")


def chance_accuracy(items: Iterable[Item]) -> float | None:
    """Random-guess accuracy in percent: mean of ``1 / len(item.options)``; None when there are no items.

    Raises:
        ValueError: an item without options (the baseline is defined for multiple choice only).
    """
    inverse = []
    for item in items:
        if not item.options:
            raise ValueError(f"item {item.id!r} has no options; random guess is defined for multiple choice")
        inverse.append(1.0 / len(item.options))
    return 100.0 * sum(inverse) / len(inverse) if inverse else None


def _sort_key(answer: str) -> tuple[int, float, str]:
    try:
        return 0, float(answer), answer
    except ValueError:
        return 1, 0.0, answer


def _tie_break(tied: list[str], items: list[Item], mra: str) -> str:
    """Among equally frequent numerical answers, the one with the highest MRA ("highest performance")."""
    tied = sorted(tied, key=_sort_key)
    if len(tied) == 1 or items[0].answer_kind is AnswerKind.MULTIPLE_CHOICE or ground_truth_error(tied[0]):
        return tied[0]  # equal counts give equal accuracy: the smallest letter, deterministically
    truths = np.array([float(i.ground_truth) for i in items])
    means = [float(np.nanmean(mra_array(np.full(len(truths), float(a)), truths, mra))) for a in tied]
    return tied[int(np.argmax(means))]


def most_frequent_answers(items: Iterable[Item], mra: str = "official") -> dict[str, str]:
    """Per task, the most frequent ``ground_truth`` string.

    Ties: for numerical tasks the tied value with the highest MRA over the task, else the smallest
    letter / number (first by ``float`` order).
    """
    answers = {}
    for task, task_items in _by_task(items).items():
        counts = Counter(i.ground_truth.strip() for i in task_items)
        top = max(counts.values())
        answers[task] = _tie_break([a for a, c in counts.items() if c == top], task_items, mra)
    return answers


@BASELINES.register("chance-frequency-string")
def chance_frequency_string(
    items: Iterable[Item], rules: ScoringRules = PER_TASK, *, mra: str = "official"
) -> ScoreResult:
    """Score "always answer the task's most frequent ground-truth string" with the official extraction.

    ``rules``: the benchmark's (``BenchmarkSpec.scoring``); the default scores per task.
    """
    items = list(items)
    answers = most_frequent_answers(items, mra)
    return _score_answers(
        items, {i.id: answers[i.task] for i in items}, rules, mra, "chance-frequency-string"
    )


def _by_task(items: Iterable[Item]) -> dict[str, list[Item]]:
    by_task: dict[str, list[Item]] = {}
    for item in items:
        by_task.setdefault(item.task, []).append(item)
    return by_task


def _score_answers(
    items: list[Item], responses: dict[str, str], rules: ScoringRules, mra: str, name: str
) -> ScoreResult:
    """Score a baseline's answers with the official extraction; the modes line names the baseline."""
    result = score_items(items, responses, rules, extract="official", mra=mra)
    # the answers are ground-truth values, not model text: say so instead of "extraction: official"
    return replace(result, extract=f"n/a ({FOOTNOTES[name]})")


#: The footnote of each frequency baseline's table (printed as its extraction mode, in scores.json too).
FOOTNOTES = {
    "chance-frequency": "chance-frequency: numerical tasks answer the constant with the best mean MRA "
    "(continuous optimum); tasks with fixed option texts (Rel. Dir.) the most frequent answer text; "
    "other choices the most frequent letter",
    "chance-frequency-restricted": "chance-frequency-restricted: as chance-frequency, numerical tasks "
    "answer the ground-truth value with the best mean MRA",
    "chance-frequency-string": "chance-frequency-string: the task's most frequent ground-truth string, "
    "read by the official rule",
}


def best_constant(items: list[Item], mra: str = "official") -> str:
    """Return the ground-truth value whose constant answer has the best mean MRA (ties: the smallest).

    Items whose ground truth is not a positive number are left out of the mean (they score NaN).

    Raises:
        ValueError: no item has a usable ground truth.
    """
    values = sorted(
        {i.ground_truth.strip() for i in items if ground_truth_error(i.ground_truth) is None}, key=_sort_key
    )
    if not values:
        raise ValueError(f"task {items[0].task!r}: no ground truth is a positive number")
    truths = np.array(
        [float(i.ground_truth) if ground_truth_error(i.ground_truth) is None else np.nan for i in items]
    )
    means = [float(np.nanmean(mra_array(np.full(len(truths), float(v)), truths, mra))) for v in values]
    return values[int(np.argmax(means))]  # argmax keeps the first (smallest) of equal means


def option_texts(item: Item) -> tuple[str, ...]:
    """Texts of an item's options (``"B. sofa"`` -> ``"sofa"``)."""
    return tuple(o.split(". ", 1)[-1].strip() for o in item.options)


def answer_text(item: Item) -> str | None:
    """Text of the option an item's letter names, or None when the letter names no option."""
    index = ord(item.ground_truth.strip().upper()[:1] or "?") - ord("A")
    texts = option_texts(item)
    return texts[index] if 0 <= index < len(texts) else None


def _most_frequent(values: Iterable[str]) -> str:
    counts = Counter(values)
    top = max(counts.values())
    return min(v for v, c in counts.items() if c == top)


def _continuous_constant(items: list[Item], mra: str) -> str:
    truths = np.array(
        [float(i.ground_truth) if ground_truth_error(i.ground_truth) is None else np.nan for i in items]
    )
    try:
        return repr(continuous_best_constant(truths, mra))  # repr: float() reads back the same value
    except ValueError as exc:
        raise ValueError(f"task {items[0].task!r}: {exc}") from None


def _count_lists(items: list[Item]) -> list[list[float]] | None:
    """Return the items' ground truths as lists of counts (a streaming count); None if one is not one."""
    lists = []
    for item in items:
        try:
            value = json.loads(item.ground_truth)
        except ValueError:
            return None
        if not isinstance(value, list) or not value or not all(isinstance(v, int | float) for v in value):
            return None
        lists.append([float(v) for v in value])
    return lists


def _per_query_constants(lists: list[list[float]], mra: str) -> str:
    """Return, as a JSON list, the best constant of each query position over the counts expected there."""
    width = max(len(counts) for counts in lists)
    columns = [np.array([counts[j] for counts in lists if len(counts) > j]) for j in range(width)]
    return json.dumps([continuous_best_constant(column, mra) for column in columns])


def frequency_responses(
    items: list[Item], mra: str = "official", *, continuous: bool = True
) -> dict[str, str]:
    """Item id -> the chance-frequency answer of its task (definitions in the module docstring).

    ``continuous``: numerical tasks answer the continuous optimum (default) or the best ground-truth value.
    """
    responses: dict[str, str] = {}
    for task_items in _by_task(items).values():
        if task_items[0].answer_kind is AnswerKind.NUMERICAL and (lists := _count_lists(task_items)):
            responses.update((i.id, _per_query_constants(lists, mra)) for i in task_items)
        elif task_items[0].answer_kind is AnswerKind.NUMERICAL:
            if all(ground_truth_error(i.ground_truth) is not None for i in task_items):
                responses.update((i.id, "") for i in task_items)  # no usable truth ("many"): data errors,
                continue  # listed and left out, as run and score do
            value = _continuous_constant(task_items, mra) if continuous else best_constant(task_items, mra)
            responses.update((i.id, value) for i in task_items)
        elif len({frozenset(option_texts(i)) for i in task_items}) == 1:
            text = _most_frequent(t for t in map(answer_text, task_items) if t is not None)
            for i in task_items:  # the letter of that text in each item (its options are the same texts)
                responses[i.id] = (
                    chr(ord("A") + option_texts(i).index(text)) if text in option_texts(i) else ""
                )
        else:
            letter = _most_frequent(i.ground_truth.strip() for i in task_items)
            responses.update((i.id, letter) for i in task_items)
    return responses


@BASELINES.register("chance-frequency")
def chance_frequency(
    items: Iterable[Item], rules: ScoringRules = PER_TASK, *, mra: str = "official"
) -> ScoreResult:
    """Score the chance level (frequency) of VSI-Bench Sec. 4.1 as its authors define it (module docstring).

    ``rules``: the benchmark's (``BenchmarkSpec.scoring``); the default scores per task.

    Raises:
        ValueError: a numerical task without a usable (positive number) ground truth.
    """
    items = list(items)
    return _score_answers(items, frequency_responses(items, mra), rules, mra, "chance-frequency")


@BASELINES.register("chance-frequency-restricted")
def chance_frequency_restricted(
    items: Iterable[Item], rules: ScoringRules = PER_TASK, *, mra: str = "official"
) -> ScoreResult:
    """As :func:`chance_frequency`, numerical constants restricted to ground-truth values.

    Raises:
        ValueError: a numerical task without a usable (positive number) ground truth.
    """
    items = list(items)
    responses = frequency_responses(items, mra, continuous=False)
    return _score_answers(items, responses, rules, mra, "chance-frequency-restricted")


@BASELINES.register("chance-random")
def chance_random(
    items: Iterable[Item], rules: ScoringRules = PER_TASK, *, mra: str = "official"
) -> ScoreResult:
    """Score the expected accuracy of a uniform guess: ``1 / len(options)`` per multiple-choice item.

    Numerical items are left out (``item_count`` counts them; their columns are ``not_applicable``).
    """
    every = list(items)
    items = [i for i in every if i.answer_kind is AnswerKind.MULTIPLE_CHOICE]
    n = len(items)
    expected = [1 / len(i.options) for i in items]  # a random guess always answers, right with p = 1/n
    rows = build_rows(items, [""] * n, ["random letter"] * n, ["expected_value"] * n, expected)
    result = result_from_rows(rules, "n/a (expected accuracy of a uniform guess)", mra, rows, [], set())
    numerical = {i.task for i in every if i.answer_kind is AnswerKind.NUMERICAL}
    missing = set(result.table.missing)
    not_applicable = tuple(c.key for c in result.table.cells if c.key in missing and numerical & set(c.parts))
    return replace(result, item_count=len(every), not_applicable=not_applicable)
