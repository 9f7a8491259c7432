"""How closely generated VSI-Bench questions follow the official ones (issue 10).

``OFFICIAL_COUNTS`` are the per-task counts of the released VSI-Bench ``test.jsonl`` (5,130 questions over
the 288 scenes of the official meta-info). :func:`count_rows` sets a manifest's counts beside them;
:func:`reproduced` tells, per task, how many official questions (rows in the official schema:
``question_type``, ``scene_name``, ``question``, ``options``, ``ground_truth``) a generated benchmark holds
with the same question text and the same answer.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from spatialbench.records.item import Item

OFFICIAL_COUNTS: dict[str, int] = {
    "object_counting": 565,
    "object_abs_distance": 834,
    "object_size_estimation": 953,
    "room_size_estimation": 288,
    "object_rel_distance": 710,
    "object_rel_direction_easy": 217,
    "object_rel_direction_medium": 378,
    "object_rel_direction_hard": 373,
}
_CHOICE_LIST = re.compile(r"\(([^()]*,[^()]*)\)")  # "(a, b, c, d)" of the relative-distance question


def answer_text(options: Iterable[str] | None, ground_truth: str) -> str:
    """Answer as text: the text of the option a letter names (``"B. sofa"`` -> ``"sofa"``), else the truth.

    Raises:
        ValueError: a letter beyond the options.
    """
    opts = list(options or ())
    if not opts:
        return ground_truth
    index = ord(ground_truth.strip().upper()) - ord("A")
    if not 0 <= index < len(opts):
        raise ValueError(f"answer {ground_truth!r} names no option of {opts}")
    return opts[index].split(". ", 1)[-1]


def question_key(
    task: str, scene: str, question: str, answer: str, any_order: bool = False
) -> tuple[str, ...]:
    """Key of a question: task, scene, text and answer; ``any_order`` sorts a listed choice set."""
    if any_order:
        question = _CHOICE_LIST.sub(lambda m: "(" + ", ".join(sorted(m[1].split(", "))) + ")", question)
    return task, scene, question.strip(), answer.strip()


def item_key(item: Item, any_order: bool = False) -> tuple[str, ...]:
    """:func:`question_key` of a generated item."""
    answer = answer_text(item.options, item.ground_truth)
    return question_key(item.task, item.scene_id or "", item.question, answer, any_order)


def row_key(row: Mapping[str, Any], any_order: bool = False) -> tuple[str, ...]:
    """:func:`question_key` of an official row (official schema)."""
    answer = answer_text(row.get("options"), str(row["ground_truth"]))
    return question_key(row["question_type"], row["scene_name"], row["question"], answer, any_order)


def reproduced(
    official: Iterable[Mapping[str, Any]], items: Iterable[Item], any_order: bool = False
) -> dict[str, tuple[int, int]]:
    """Per task: (official questions the items reproduce exactly, official questions).

    ``any_order``: a relative-distance question counts when its choices are the same in any order.
    """
    generated = {item_key(item, any_order) for item in items}
    hits: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    for row in official:
        totals[row["question_type"]] += 1
        hits[row["question_type"]] += row_key(row, any_order) in generated
    return {task: (hits[task], totals[task]) for task in totals}


def count_rows(manifest: Mapping[str, Any]) -> list[tuple[str, int, int, float]]:
    """(task, generated, official, relative difference) for each task of ``OFFICIAL_COUNTS``."""
    tasks = manifest["tasks"]
    rows = []
    for task, official in OFFICIAL_COUNTS.items():
        generated = int(tasks[task]["count"]) if task in tasks else 0
        rows.append((task, generated, official, (generated - official) / official))
    return rows
