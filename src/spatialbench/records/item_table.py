"""Items held as columns: a million items without a million objects, for the scorer's bulk path.

An :class:`ItemTable` keeps one list per :class:`~spatialbench.records.item.Item` field (:data:`FIELDS`,
in field order) and is a ``Sequence[Item]``: ``table[k]`` and iteration make each :class:`Item` only when
asked for (:func:`~spatialbench.records.bulk.item_of`: equal to the item the loader would have kept, a
new object each time). A loader that checks its rows column by column hands its columns over as they are
(VSI-Bench's JSONL blocks: measured ~1.6 s and ~400 MB less on 1M items than making the items); the
scorer reads whole columns (:meth:`ItemTable.column`) of any items (:meth:`ItemTable.of`). A table is no
``list``: it does not compare equal to one and has no ``append``; ``list(table)`` makes the list.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from operator import attrgetter
from typing import Any, overload

from spatialbench.records.bulk import item_of
from spatialbench.records.item import Item
from spatialbench.records.rows import RowError

FIELDS = tuple(Item.model_fields)
"""The columns of a table: :class:`Item`'s fields, in their order (``item_of``'s arguments)."""


class ItemTable(Sequence[Item]):
    """A ``Sequence[Item]`` stored as one list per field (module docstring).

    Args:
        columns: ``{field: cells}`` for every name of :data:`FIELDS`, each with a cell per item, every cell
            of its field's final type (as :func:`~spatialbench.records.bulk.item_of` takes it).

    Raises:
        ValueError: a field missing or unknown, or columns of different lengths.
    """

    __slots__ = ("_columns",)

    def __init__(self, columns: Mapping[str, list[Any]]) -> None:
        if tuple(columns) != FIELDS:
            raise ValueError(f"an item table needs the columns {list(FIELDS)} in order, got {list(columns)}")
        if len(set(map(len, columns.values()))) > 1:
            raise ValueError("the columns of an item table differ in length")
        self._columns = dict(columns)

    @classmethod
    def of(cls, items: Iterable[Item]) -> ItemTable:
        """Return ``items`` as a table (itself when it is one); each field read in a C loop."""
        if isinstance(items, ItemTable):
            return items
        kept = items if isinstance(items, list) else list(items)
        return cls({name: list(map(attrgetter(name), kept)) for name in FIELDS})

    def column(self, name: str) -> list[Any]:
        """Return field ``name`` of every item, in order (the table's own list: do not change it).

        Raises:
            KeyError: ``name`` is not a field of :class:`Item`.
        """
        return self._columns[name]

    def take(self, positions: Sequence[int]) -> ItemTable:
        """Return the table of the items at ``positions`` (in that order)."""
        return ItemTable({name: list(map(cells.__getitem__, positions))
                          for name, cells in self._columns.items()})

    def __len__(self) -> int:
        return len(self._columns["id"])

    @overload
    def __getitem__(self, index: int) -> Item: ...

    @overload
    def __getitem__(self, index: slice) -> ItemTable: ...

    def __getitem__(self, index: int | slice) -> Item | ItemTable:
        if isinstance(index, slice):
            return ItemTable({name: cells[index] for name, cells in self._columns.items()})
        return item_of(*(cells[index] for cells in self._columns.values()))

    def __iter__(self) -> Iterator[Item]:
        return map(item_of, *self._columns.values())

    def __repr__(self) -> str:
        ids = self._columns["id"]
        shown = ", ".join(map(repr, ids[:3])) + (", ..." if len(ids) > 3 else "")
        return f"{type(self).__name__}({len(ids)} items: ids {shown}; list(table) gives the Item objects)"


class LoadedTable(ItemTable):
    """An :class:`ItemTable` that also carries the rows that could not be read (``errors``).

    What :class:`~spatialbench.records.rows.LoadedItems` is for a list.
    """

    __slots__ = ("errors",)

    def __init__(self, columns: Mapping[str, list[Any]], errors: Sequence[RowError] = ()) -> None:
        super().__init__(columns)
        self.errors: list[RowError] = list(errors)

    @classmethod
    def of_items(cls, items: Iterable[Item], errors: Sequence[RowError] = ()) -> LoadedTable:
        """Return the table of ``items`` (their fields read in C loops) with ``errors``."""
        return cls(ItemTable.of(items)._columns, errors)
