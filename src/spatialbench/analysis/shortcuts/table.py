"""Items -> one row per question with the label columns the feature sets read (official TsT `load_data`).

The official code keeps, for each question, ``gt_idx`` (the gold option's index, -1 for numbers) and
``gt_val`` (the gold option's text, or the number); every column derived from them is a *label column*,
which the leak check changes on held-out rows (:mod:`spatialbench.analysis.shortcuts.leak`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np
import pandas as pd

from spatialbench.records import AnswerKind, Item

#: Columns that carry the answer; a feature computed for a held-out row may not read them.
LABEL_COLUMNS = ("gt_idx", "gt_val", "gt_num", "log_gt")

#: VSI-Bench's three relative-direction levels are one question type to the official TsT code.
_TASK_ALIASES = {
    "object_rel_direction_easy": "object_rel_direction",
    "object_rel_direction_medium": "object_rel_direction",
    "object_rel_direction_hard": "object_rel_direction",
}


def option_text(option: str) -> str:
    """Return an option's text: ``"A. sofa"`` -> ``"sofa"`` (the official ``split(". ")[-1]``)."""
    return option.split(". ")[-1].strip()


def _id_key(identifier: str) -> tuple[int, str, float, str]:
    """Numeric ids numerically; ``file:number`` ids (a folder of several files) by file, then number."""
    head, sep, tail = identifier.rpartition(":")
    try:
        return (0, "", float(identifier), identifier) if not sep else (1, head, float(tail), identifier)
    except ValueError:
        return (2, "", 0.0, identifier)


def tst_type(item: Item) -> str:
    """Return the question type the official TsT code tests ``item`` in.

    VSI-Bench's relative-direction levels are one type; CV-Bench's are ``task_type`` in lower case
    (``count_2d``, ``relation_2d``, ``depth_3d``, ``distance_3d``: the official ``question_type``).
    """
    if item.benchmark == "cvbench" and item.metadata.get("type"):
        return f"{item.task.lower()}_{str(item.metadata['type']).lower()}"
    return _TASK_ALIASES.get(item.task, item.task)


def order_digest(ids: Iterable[str]) -> str:
    """Hash (SHA-256, hex) the ids joined by newlines, in order: pins a stress-test's row order."""
    return hashlib.sha256("\n".join(ids).encode()).hexdigest()


def question_table(items: Iterable[Item]) -> pd.DataFrame:
    """One row per item, sorted by id (numbers numerically, ``file:n`` by file then n), index 0..n-1.

    Columns: ``id``, ``task`` (:func:`tst_type`; the relative-direction levels merged, ``difficulty`` kept),
    ``question``, ``question_text`` (the question as the file writes it, before choices are appended: a
    CV-Bench row's ``question``; else the question), ``options`` (list of option texts), ``scene``,
    ``format`` (``"mc"`` / ``"num"``),
    ``gt_idx`` (int, -1 for numbers), ``gt_val`` (str), ``gt_num`` (float, NaN for multiple choice),
    ``log_gt`` (``log10(gt_num + 1)``), ``slots`` (a generated item's ``metadata["slots"]``: the objects
    and roles it was drawn with, by the feature sets' key names; None for other items).
    """
    rows = []
    for item in sorted(items, key=lambda it: _id_key(it.id)):
        texts = [option_text(o) for o in item.options]
        mc = item.answer_kind == AnswerKind.MULTIPLE_CHOICE
        gt_idx = "ABCDEFGH".find(item.ground_truth.strip()[:1]) if mc else -1
        number = float("nan") if mc else _number(item.ground_truth)
        rows.append(
            {
                "id": item.id,
                "task": tst_type(item),
                "difficulty": item.task.rsplit("_", 1)[-1] if item.task in _TASK_ALIASES else "",
                "question": item.question,
                "question_text": str(item.metadata.get("question_text") or item.question),
                "options": texts,
                "scene": item.scene_id or item.id,
                "format": "mc" if mc else "num",
                "gt_idx": gt_idx,
                "gt_val": texts[gt_idx] if mc and 0 <= gt_idx < len(texts) else item.ground_truth,
                "gt_num": number,
                "slots": _slots(item.metadata.get("slots")),
            }
        )
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    frame["log_gt"] = np.log10(frame["gt_num"] + 1.0)
    return frame


def _slots(value: object) -> dict[str, str] | None:
    """Return the generator's slots as a dict of names, None when absent."""
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else None


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return float("nan")
