"""The one check every loader makes on item ids: each row's id is non-empty and not seen before.

Predictions are matched to questions by id, so two questions with one id would share (swap) their answers
and an empty id matches nothing. A refused row is a row error naming its file, line and id field; the first
row with an id is kept (``duplicate id 'x' (first at FILE:LINE)``).
"""

from __future__ import annotations

from spatialbench.records.item import Item
from spatialbench.records.rows import LoadedItems, RowError


class UniqueIds:
    """Remembers where each id was first kept; :meth:`refusal` says why a row's id cannot be kept."""

    def __init__(self) -> None:
        # id → its line in the first file (an int keeps a million-row file lean) or (file, line) elsewhere
        self._first: dict[str, int | tuple[str, int | None]] = {}
        self._first_file: str | None = None

    def refusal(
        self, item_id: str, file: str, line: int | None, field: str = "id", written: str | None = None
    ) -> RowError | None:
        """Return the row error for an empty or repeated ``item_id`` (recording a new one), else None.

        ``written``: the id as the file has it, when the loader prefixes it (``image:`` + an empty id).
        """
        if not (item_id if written is None else written).strip():
            return RowError(file, line, field, "empty id: every question needs one (answers match by id)")
        place = self._first.get(item_id)
        if place is not None:
            return RowError(file, line, field, f"duplicate id {item_id!r} (first at {self._where(place)})")
        self._first_file = self._first_file or file
        self._first[item_id] = line if file == self._first_file and line is not None else (file, line)
        return None

    def keep(
        self, loaded: LoadedItems, item: Item, file: str, line: int | None, field: str = "id",
        written: str | None = None,
    ) -> bool:
        """Append ``item`` to ``loaded`` when its id may be kept, else its row error; True when kept."""
        problem = self.refusal(item.id, file, line, field, written)
        if problem is not None:
            loaded.errors.append(problem)
            return False
        loaded.append(item)
        return True

    def _where(self, place: int | tuple[str, int | None]) -> str:
        file, line = (self._first_file, place) if isinstance(place, int) else place
        return str(RowError(str(file), line, None, "")).rstrip(": ")
