"""VSI-Bench (tiny): the 400-question subset behind the paper's human-level row and analyses.

"Thinking in Space" Sec. 4.1 / 5 / 6, App. C.2 and Table 11 use VSI-Bench (tiny), 50 questions per task.
``tiny_ids.txt`` (package data) is the official list, one id per line in ascending order, copied from
the authors' ``cogmap`` branch (``lmms_eval/tasks/vsibench/utils.py``, ``process_docs()``,
``subset_indexes``). Only 392 of its ids are in the released test set: the authors removed a few
questions before release (their repository's issue #9), so a selection reports the ids it did not find
instead of failing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from spatialbench.prompting.templates import read_text
from spatialbench.records.item import Item
from spatialbench.records.rows import LoadedItems, RowError

IDS_FILE = "tiny_ids.txt"


@cache
def tiny_ids() -> tuple[str, ...]:
    """Return the 400 official VSI-Bench (tiny) ids, as strings, in file order."""
    lines = read_text(__package__, IDS_FILE).splitlines()
    return tuple(line.strip() for line in lines if line.strip())


@dataclass(frozen=True)
class SubsetSelection:
    """Items of a subset found in a benchmark, and the subset's ids it lacks (in list order)."""

    items: list[Item]
    missing: tuple[str, ...]

    def note(self) -> str:
        """One line: how many of the subset's ids were found, and which are missing (first 20)."""
        total = len(self.items) + len(self.missing)
        if not self.missing:
            return f"VSI-Bench (tiny): all {total} ids found"
        shown = ", ".join(self.missing[:20]) + (" ..." if len(self.missing) > 20 else "")
        return f"VSI-Bench (tiny): {len(self.items)} of {total} ids found; missing: {shown}"


def select_tiny(items: Sequence[Item]) -> SubsetSelection:
    """Keep the items whose id is in VSI-Bench (tiny), in their benchmark order; report missing ids."""
    wanted = set(tiny_ids())
    chosen = [item for item in items if item.id in wanted]
    found = {item.id for item in chosen}
    return SubsetSelection(chosen, tuple(i for i in tiny_ids() if i not in found))


def tiny_subset(items: LoadedItems) -> LoadedItems:
    """Apply the loader's ``subset="tiny"``: the tiny items, plus one :class:`RowError` per missing id.

    A missing id names ``tiny_ids.txt`` and its line, so ``run`` / ``score`` list it with the rows they
    skipped (and ``scores.json`` keeps it) rather than failing.
    """
    selection = select_tiny(items)
    lines = {i: n for n, i in enumerate(tiny_ids(), start=1)}
    missing = [
        RowError(IDS_FILE, lines[i], "id", f"VSI-Bench (tiny) id {i} is not in the annotations; skipped")
        for i in selection.missing
    ]
    return LoadedItems(selection.items, [*items.errors, *missing])
