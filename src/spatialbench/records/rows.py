"""Rows read from annotation and prediction files: the items loaded and the rows that could not be read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spatialbench.records.item import Item


class EntryIndex(int):
    """A 1-based position in a JSON list of entries (not a line): :class:`RowError` prints ``entry N``."""


@dataclass(frozen=True)
class RowError:
    """One bad row of an annotation or prediction file; ``str()`` names file, line and field.

    ``line`` is a line number (JSONL), a row number (Parquet) or an :class:`EntryIndex` (JSON list);
    the last is printed ``file: entry N:`` so it is not mistaken for a line of the file.
    """

    file: str
    line: int | None
    field: str | None
    message: str

    def __str__(self) -> str:
        if isinstance(self.line, EntryIndex):
            where = f"{self.file}: entry {self.line}"
        else:
            where = f"{self.file}:{self.line}" if self.line is not None else self.file
        what = f" field {self.field!r}:" if self.field else ""
        return f"{where}:{what} {self.message}"


class LoadedItems(list[Item]):
    """A ``list[Item]`` that also carries the rows that could not be read (``errors``)."""

    def __init__(self, items: Sequence[Item] = (), errors: Sequence[RowError] = ()) -> None:
        super().__init__(items)
        self.errors: list[RowError] = list(errors)
