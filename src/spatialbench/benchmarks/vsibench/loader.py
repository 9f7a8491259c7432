"""VSI-Bench: official annotation files → items (the records: :mod:`spatialbench.benchmarks.vsibench.format`).

Formats read (see :mod:`spatialbench.records.files`): ``test.jsonl``, the Hugging Face Parquet
files, and JSON exports holding a list of question objects (or ``{"questions": [...]}``). A bad record
is a row error naming its file, line and field; good rows are kept.

A record without ``id`` gets a stable derived id ``<scene_name>-<12 hex of sha1(dataset, scene, type,
question, options)>`` (``-2``, ``-3``… for repeats) and ``metadata["derived_id"] = True``.

VSI-Bench-Debiased: the bias-pruned ids come from a ``pruned`` column or an id list
(``pruned_ids=``, one id per line, read strictly by :mod:`spatialbench.benchmarks.vsibench.pruned_ids`); each
item gets ``metadata["pruned"]``. ``subset=`` selects one of :mod:`~spatialbench.benchmarks.vsibench.subsets`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from itertools import chain, repeat
from operator import attrgetter
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.shared.columns import Columns, check_columns
from spatialbench.benchmarks.vsibench.format import NAME, REQUIRED, RowProblem, record_to_item
from spatialbench.benchmarks.vsibench.pruned_ids import read_pruned_ids
from spatialbench.benchmarks.vsibench.rows_bulk import block_columns
from spatialbench.benchmarks.vsibench.subsets import FULL, NAMES, SUBSETS
from spatialbench.records.blocks import Block, jsonl_blocks
from spatialbench.records.bulk import Shared, paused_gc
from spatialbench.records.files import SUFFIX_PRIORITY, Record, annotation_files, read_records
from spatialbench.records.item import Item
from spatialbench.records.item_table import FIELDS, LoadedTable
from spatialbench.records.rows import LoadedItems, RowError

COLUMNS = Columns(NAME, dict.fromkeys(SUFFIX_PRIORITY, REQUIRED))

def derived_id(record: dict[str, Any]) -> str:
    """Stable id for a record without one: ``<scene_name>-<sha1 of its content, 12 hex>``."""
    options = record.get("options")
    content = "\x1f".join(
        [str(record.get(k, "")) for k in ("dataset", "scene_name", "question_type", "question")]
        + [str(o) for o in (options if options is not None else [])]
    )
    return f"{record.get('scene_name', '')}-{hashlib.sha1(content.encode('utf-8')).hexdigest()[:12]}"


def _with_id(record: dict[str, Any], seen: dict[str, int]) -> dict[str, Any]:
    if record.get("id") is not None:
        return record
    base = derived_id(record)
    seen[base] = seen.get(base, 0) + 1
    suffix = f"-{seen[base]}" if seen[base] > 1 else ""
    return {**record, "id": base + suffix, "derived_id": True}


class _Reader:
    """Reads one path's items as columns: JSONL lines in blocks (:mod:`.rows_bulk`), other rows one by one."""

    def __init__(self, pruned: set[str] | None) -> None:
        self.columns: dict[str, list[Any]] = {name: [] for name in FIELDS}
        self.errors = list[RowError]()
        # id → its line (in the first file) or (file, line)
        self.seen_ids: dict[str, int | tuple[str, int]] = {}
        self.first_file: str | None = None
        self.derived: dict[str, int] = {}
        self.shared, self.pruned = Shared(), pruned
        # the fields of the rows read one by one, by file, and the files with an item: a file of no item
        # lacking a column is another benchmark's (checked then, so a good bulk block costs nothing)
        self.fields: dict[str, dict[str, None]] = {}
        self.kept: set[str] = set()
        # clean blocks not added yet (add_held): file, first line, columns; their records are freed
        self.held: list[tuple[str, int, dict[str, list[Any]]]] = []
        self.rows: list[Item] = []  # items of rows read one by one, not in the columns yet (add_rows)

    def block(self, block: Block) -> None:
        """Hold a block's checked columns (added by :meth:`add_held`), or read it row by row."""
        self.first_file = self.first_file or block.file
        built = block_columns(block.records, self.pruned, self.shared)
        if built is not None:
            self.held.append((block.file, block.first, built))
            return
        self.add_held()
        for offset, record in enumerate(block.records):
            self.row(block.file, block.first + offset, record)

    def add_held(self) -> None:
        """Add the held blocks' items, in file order (before the next entry that is not a clean block).

        Their ids are checked at once: one dict of them all, not the ids of each block looked up among
        those read so far (a million rows: ~0.3 s less). An id twice among them sends each block through
        :meth:`_add_block`, which adds a block repeating an id row by row (its row errors).
        """
        if not self.held:  # called before each row read one by one: a Parquet file's million
            return
        held, self.held = self.held, []
        ids = chain.from_iterable(built["id"] for _, _, built in held)
        lines = chain.from_iterable(self._places(f, first, len(built["id"])) for f, first, built in held)
        places = dict(zip(ids, lines, strict=True))
        clean = len(places) == sum(len(built["id"]) for _, _, built in held)
        if not clean or not self.seen_ids.keys().isdisjoint(places):
            for file, first, built in held:
                self._add_block(file, first, built)
            return
        self.seen_ids.update(places)
        for file, _, built in held:
            self._extend(file, built)

    def _add_block(self, file: str, first: int, built: dict[str, list[Any]]) -> None:
        """Add a clean block's rows; one repeating an id read before is that row's error, as :meth:`row`'s."""
        ids = built["id"]
        if len(set(ids)) == len(ids) and self.seen_ids.keys().isdisjoint(ids):
            self.seen_ids.update(zip(ids, self._places(file, first, len(ids)), strict=True))
            self._extend(file, built)
            return
        self.add_rows()
        for offset, item_id in enumerate(ids):  # every other field of a clean block's rows is good
            if not self._duplicate(file, first + offset, item_id):
                self.seen_ids[item_id] = first + offset if file == self.first_file else (file, first + offset)
                for name, cells in built.items():
                    self.columns[name].append(cells[offset])
                self.kept.add(file)

    def _places(self, file: str, first: int, count: int) -> Iterable[int | tuple[str, int]]:
        """Return the place of each of a block's first ``count`` lines, as ``seen_ids`` keeps it."""
        lines = range(first, first + count)
        return lines if file == self.first_file else zip(repeat(file), lines)

    def _extend(self, file: str, built: dict[str, list[Any]]) -> None:
        self.add_rows()
        for name, cells in built.items():
            self.columns[name] += cells
        self.kept.add(file)

    def _duplicate(self, file: str, line: int, item_id: str) -> bool:
        """Add the row error of an id read before (naming its first place) and return True, else False."""
        if item_id not in self.seen_ids:
            return False
        place = self.seen_ids[item_id]
        first = f"{self.first_file}:{place}" if isinstance(place, int) else "{}:{}".format(*place)
        self.errors.append(RowError(file, line, "id", f"duplicate id {item_id!r} (first at {first})"))
        return True

    def row(self, file: str, line: int, record: dict[str, Any]) -> None:
        """Add one record's item, or its row error (a bad field, a repeated id)."""
        self.first_file = self.first_file or file
        self.fields.setdefault(file, {}).update(dict.fromkeys(str(k) for k in record))
        try:
            item = record_to_item(_with_id(record, self.derived), self.pruned, self.shared)
        except RowProblem as problem:
            self.errors.append(RowError(file, line, problem.field, str(problem)))
            return
        if self._duplicate(file, line, item.id):
            return
        self.seen_ids[item.id] = line if file == self.first_file else (file, line)
        self.rows.append(item)
        self.kept.add(file)

    def add_rows(self) -> None:
        """Add the items of the rows read one by one since the last block, to the columns, in order.

        A field at a time, in C loops (a Parquet file's million rows come one by one): ~0.3 µs a row, where
        appending each field of each item took ~2.5 µs.
        """
        if self.rows:
            for name, cells in self.columns.items():
                cells += map(attrgetter(name), self.rows)
            self.rows.clear()

    def check_columns(self) -> None:
        """Refuse a file none of whose rows made an item when it lacks a required column.

        Raises:
            MissingColumnError (an AnnotationFileError): the first such file, with the fields its rows have.
        """
        for file, fields in self.fields.items():
            if file not in self.kept:
                check_columns(Path(file), fields, COLUMNS)


def _entries(path: Path) -> Iterator[Block | Record | RowError]:
    """Every record of ``path`` as :func:`read_records` yields it, JSONL files in blocks of lines."""
    for file in annotation_files(path):
        yield from jsonl_blocks(file) if file.suffix.lower() == ".jsonl" else read_records(file)


def _read_table(path: Path, pruned: set[str] | None) -> LoadedTable:
    """Every item of ``path`` in file order, as columns; bad rows and repeated ids go to ``.errors``."""
    reader = _Reader(pruned)
    for entry in _entries(path):
        if isinstance(entry, Block):
            reader.block(entry)
            continue
        reader.add_held()
        if isinstance(entry, RowError):
            reader.errors.append(entry)
        else:
            reader.row(*entry)
    reader.add_held()
    reader.add_rows()
    reader.check_columns()
    return LoadedTable(reader.columns, reader.errors)


def load_vsibench(
    path: str | Path,
    *,
    pruned_ids: str | Path | Iterable[Any] | None = None,
    subset: str = FULL,
) -> LoadedItems:
    """Load VSI-Bench items from an annotation file or folder.

    Args:
        path: ``test.jsonl``, a Parquet file, a JSON export, or a folder of them.
        pruned_ids: the VSI-Bench-Debiased pruned id list (file or ids); overrides a ``pruned`` column.
        subset: ``full`` (all items, pruning recorded in metadata), ``debiased`` (unpruned only) or
            ``tiny`` (VSI-Bench (tiny) ids; missing ones become row errors: ``vsibench.tiny``).

    Returns:
        The items read; ``.errors`` lists every malformed row (file, line, field); good rows are kept.

    Raises:
        FileNotFoundError: ``path`` or ``pruned_ids`` file missing.
        ValueError: unknown ``subset``, ``debiased`` without pruning information, or a pruned-id file
            with a line that is not an id (or no id at all).
    """
    table = _table(Path(path), pruned_ids, subset)
    with paused_gc():  # a million new items: no cycle scans while they are made (records.bulk)
        return _select(LoadedItems(table, table.errors), subset)


def load_vsibench_table(
    path: str | Path,
    *,
    pruned_ids: str | Path | Iterable[Any] | None = None,
    subset: str = FULL,
) -> LoadedTable:
    """Load VSI-Bench as :func:`load_vsibench` does, as columns (the scorer's input).

    An :class:`~spatialbench.records.item_table.ItemTable`: no :class:`~spatialbench.records.item.Item`
    is made for the rows of clean JSONL blocks.

    Arguments, errors raised and the items (``.errors`` included) are :func:`load_vsibench`'s.
    """
    table = _table(Path(path), pruned_ids, subset)
    if subset == FULL:
        return table
    with paused_gc():
        items = _select(LoadedItems(table, table.errors), subset)
    return LoadedTable.of_items(items, items.errors)


def _table(path: Path, pruned_ids: str | Path | Iterable[Any] | None, subset: str) -> LoadedTable:
    """Check ``subset``, read the pruned ids, then every item of ``path`` (as :func:`_read_table`)."""
    if subset not in NAMES:
        raise ValueError(f"subset must be one of {', '.join(NAMES)}, got {subset!r}")
    pruned = read_pruned_ids(pruned_ids) if pruned_ids is not None else None
    with paused_gc():  # a million new rows: no cycle scans while they are read (records.bulk)
        return _read_table(path, pruned)


def _select(items: LoadedItems, subset: str) -> LoadedItems:
    chosen = [s for s in SUBSETS if s.name == subset]
    return chosen[0].select(items) if chosen else items
