"""Predictions that carry their question text are checked against the annotations they are scored on.

lmms-eval logs (the item under ``doc`` or a metric key) and VLMEvalKit result tables (column ``question``)
repeat each item's question. Integer ids (0, 1, 2, ...) collide between benchmark files, so a log scored
against the wrong annotation file matched id for id and was scored silently (31.2 and 25.1 were seen,
issue 26). :func:`check_questions` compares the texts: whitespace is collapsed, and a text is taken to
agree when one contains the other (a table may append the options, or a prompt prefix, to the question).
One disagreeing item refuses the file: the first is named with both texts, shortened.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from spatialbench.errors import SpatialBenchError
from spatialbench.records.item import Item
from spatialbench.records.item_table import ItemTable

SHOWN = 60
"""Characters of each question shown in the refusal."""


class QuestionMismatchError(SpatialBenchError, ValueError):
    """Predictions whose logged question texts are not the annotations' (the wrong annotation file)."""


@dataclass(frozen=True)
class LoggedQuestion:
    """The question text a prediction row carries and where it was read (``file:line``)."""

    text: str
    where: str


def _plain(text: str) -> str:
    return " ".join(text.split())


def _agree(logged: str, annotated: str) -> bool:
    a, b = _plain(logged), _plain(annotated)
    return a in b or b in a


def _short(text: str) -> str:
    plain = _plain(text)
    return repr(plain if len(plain) <= SHOWN else plain[: SHOWN - 3] + "...")


def disagreement(logged: Mapping[str, LoggedQuestion], items: Iterable[Item], ours: str = "the predictions",
                 theirs: str = "the annotations", unit: str = "logged questions") -> str | None:
    """Return why ``logged`` questions are not the questions of ``items`` (None when every shared id agrees).

    The reason names the first disagreeing row (where, id), both questions shortened (``ours`` asks ...,
    ``theirs`` ...) and how many of the shared ids disagree.
    """
    if not logged:  # no question logged: nothing to compare (a million items not even read)
        return None
    table = ItemTable.of(items)
    questions = dict(zip(table.column("id"), table.column("question"), strict=True))
    shared = [i for i in logged if i in questions]
    wrong = [i for i in shared if not _agree(logged[i].text, questions[i])]
    if not wrong:
        return None
    first = logged[wrong[0]]
    return (f"{first.where}: item {wrong[0]}: {ours} ask {_short(first.text)}, {theirs} "
            f"{_short(questions[wrong[0]])} ({len(wrong)} of {len(shared)} {unit} differ)")


def check_questions(logged: Mapping[str, LoggedQuestion], items: Iterable[Item]) -> None:
    """Refuse predictions whose logged questions disagree with the questions of the items they name.

    Args:
        logged: item id -> the question its prediction row carries (rows without one are not listed).
        items: the annotations' items; ids not among them are reported elsewhere (unmatched ids).

    Raises:
        QuestionMismatchError: an item's logged question is not its annotated one; the message names the
            first such row (file, line, id), both questions shortened, and how many of the logged ones
            disagree.
    """
    why = disagreement(logged, items)
    if why is not None:
        raise QuestionMismatchError(f"{why}; scored against another benchmark file? refused")
