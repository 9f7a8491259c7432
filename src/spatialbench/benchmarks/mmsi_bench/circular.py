r"""MMSI-Bench circular evaluation: each question asked four times, options rotated (``MMSI_Bench_Circular``).

The official code (github InternRobotics/MMSI-Bench, ``vlmeval/dataset/mmsi_bench.py``,
``MMSIBenchCircular``): the options are read back from the question text (after ``Options:``), laid out in
the four cyclic orders ABCD, BCDA, CDAB, DABC (the option shown as letter k is the original option
``order[k]``; the answer moves to ``"ABCD"[order.index(answer)]``), and the question is rebuilt as
``question + "\n" + "Options: A: x, B: y, ..."``. Rotation i gets index ``index + i * 1,000,000`` and group
``index``; a question whose options cannot be read, or whose answer is not one of them, is left out (the
official loader skips it; here it is a row error). A group is right only when all four rotations are
(``evaluate``: ``all_correct``); the official ``Vanilla`` figure is rotation 0 alone. Options that came
as TSV columns (EASI's copy) are rotated from those columns, not read back from the text.
"""

from __future__ import annotations

import re

from spatialbench.records.errors import MalformedSampleError
from spatialbench.records.item import Item

ORDERS = ("ABCD", "BCDA", "CDAB", "DABC")
#: rotation i of question q has id q + i * OFFSET (the official ``index + i * 1000000``)
OFFSET = 1_000_000
_OPTION = re.compile(r"([A-D])\s*:\s*(.*?)(?=\s+[A-D]\s*:|,\s*[A-D]\s*:|$)")


def split_options(question: str) -> tuple[str, dict[str, str]]:
    """Return the question text before ``Options:`` and its options by letter (official parsing)."""
    parts = question.split("Options:", 1)
    if len(parts) < 2:
        return question.strip(), {}
    return parts[0].strip(), {m[0]: m[1].strip() for m in _OPTION.findall(parts[1].strip())}


def group_of(item_id: str) -> str:
    """Return the question a rotation's id belongs to (the official ``g_index = index % 1e6``).

    Ids that are not whole numbers are their own group.
    """
    return str(int(item_id) % OFFSET) if item_id.isdigit() else item_id


def rotations(item: Item) -> tuple[Item, ...]:
    """Return the four rotations of ``item`` in the official order (rotation 0 first).

    Raises:
        MalformedSampleError: the id is not a whole number below 1,000,000, the options cannot be read
            from the question, or the answer is not one of them.
    """
    if not item.id.isdigit() or int(item.id) >= OFFSET:
        raise MalformedSampleError(item.id, "id", "circular evaluation needs whole-number ids below 1000000")
    text, options = split_options(item.question)
    options = item.metadata.get("option_texts") or options  # EASI's option columns, when the TSV had them
    if not options or item.ground_truth not in options:
        raise MalformedSampleError(item.id, "question", "no options after 'Options:' holding the answer")
    rotated = []
    for i, order in enumerate(ORDERS):
        shown = {k: options[o] for k, o in zip("ABCD", order, strict=True) if o in options}
        question = f"{text}\nOptions: " + ", ".join(f"{k}: {v}" for k, v in shown.items())
        rotated.append(
            item.model_copy(
                update={
                    "id": str(int(item.id) + i * OFFSET),
                    "question": question,
                    "ground_truth": "ABCD"[order.index(item.ground_truth)],
                    "metadata": {**item.metadata, "g_index": item.id, "rotation": i},
                }
            )
        )
    return tuple(rotated)
