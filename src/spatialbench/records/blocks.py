"""JSONL files read a block of lines at a time: a million-line file parsed in C loops, not line by line.

:func:`jsonl_blocks` reads about :data:`BLOCK_BYTES` of whole lines at a time. A block whose every line
orjson reads as the standard library would (no 19-digit run, no line orjson refuses, every line a JSON
object: what :func:`~spatialbench.records.files.jsonl_entry` would read with orjson) comes as one
:class:`Block` of its records, parsed by ``map(orjson.loads, lines)``; any other block (a blank line, a
line that is not JSON or not UTF-8, an id beyond 64 bits) comes line by line, exactly as
:func:`~spatialbench.records.files.read_records` yields it (records, :class:`RowError`). Either way the
records and line numbers are those of :func:`~spatialbench.records.files.read_records`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from spatialbench.records.files import (
    BOM,
    DIGIT_MARKS,
    LONG_DIGITS,
    UTF16_BOMS,
    UTF16_TEXT,
    Record,
    jsonl_entry,
)
from spatialbench.records.rows import RowError

BLOCK_BYTES = 1 << 21
"""About this many bytes of whole lines are read and parsed at a time (~10,000 VSI-Bench lines)."""


@dataclass(frozen=True)
class Block:
    """Consecutive lines of one JSONL file, every one a JSON object: ``records[k]`` is line ``first + k``."""

    file: str
    first: int
    records: list[dict[str, Any]]


def jsonl_blocks(path: Path) -> Iterator[Block | Record | RowError]:
    """Yield the lines of JSONL file ``path`` as :class:`Block` or one entry per line (module docstring)."""
    name = str(path)
    number = 1
    with path.open("rb") as handle:
        while lines := handle.readlines(BLOCK_BYTES):
            if number == 1:
                if lines[0].startswith(UTF16_BOMS):
                    yield RowError(name, 1, None, UTF16_TEXT)
                    return
                lines[0] = lines[0].removeprefix(BOM)
            records = _parsed(lines)
            if records is not None:
                yield Block(name, number, records)
            else:
                for offset, raw in enumerate(lines):
                    entry = jsonl_entry(name, number + offset, raw)
                    if entry is not None:
                        yield entry
            number += len(lines)


def _parsed(lines: list[bytes]) -> list[dict[str, Any]] | None:
    """Return every line's object as orjson reads it, or None when one line must be read on its own."""
    if LONG_DIGITS in b"".join(lines).translate(DIGIT_MARKS):
        return None
    try:
        records = list(map(orjson.loads, lines))
    except orjson.JSONDecodeError:
        return None
    return records if set(map(type, records)) == {dict} else None
