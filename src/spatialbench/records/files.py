"""Reading VSI-Bench-style records (one dict per question) from JSONL, Parquet and JSON files or folders.

Every record comes with its file and 1-based position: the line for JSONL, the row for Parquet, the
entry of the question list for JSON (an :class:`EntryIndex`, printed
``file: entry N``). A line that is not valid JSON becomes a :class:`RowError`; the
other records of the file are still returned.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from spatialbench.records.rows import EntryIndex, RowError

SUFFIX_PRIORITY = (".jsonl", ".parquet", ".json")
Record = tuple[str, int, dict[str, Any]]


def annotation_files(path: Path) -> list[Path]:
    """List the files to read for ``path``.

    That is the file itself, or in a folder the files of the first suffix in ``SUFFIX_PRIORITY`` that
    it holds (searched recursively), sorted by name.

    A Hugging Face download holds the same questions as ``test.jsonl`` and as Parquet; reading only one
    kind avoids counting every question twice.

    Raises:
        FileNotFoundError: ``path`` does not exist or the folder holds no annotation file.
    """
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise FileNotFoundError(f"annotation path not found: {path}")
    for suffix in SUFFIX_PRIORITY:
        files = sorted(p for p in path.rglob(f"*{suffix}") if p.is_file())
        if files:
            return files
    raise FileNotFoundError(f"no {'/'.join(SUFFIX_PRIORITY)} annotation file in {path}")


def _jsonl(path: Path) -> Iterator[Record | RowError]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                message = f"not valid JSON ({err.msg} at column {err.colno})"
                yield RowError(str(path), number, None, message)
                continue
            if not isinstance(record, dict):
                message = f"expected a JSON object, got {type(record).__name__}"
                yield RowError(str(path), number, None, message)
                continue
            yield str(path), number, record


def _parquet(path: Path) -> Iterator[Record | RowError]:
    import pyarrow.parquet as pq

    for number, record in enumerate(pq.read_table(path).to_pylist(), start=1):
        yield str(path), number, record


def _json(path: Path) -> Iterator[Record | RowError]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        yield RowError(str(path), None, None, f"not valid JSON ({err.msg} at line {err.lineno})")
        return
    entries = data.get("questions") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        message = "expected a list of question objects (or {'questions': [...]})"
        yield RowError(str(path), None, "questions", message)
        return
    for position, record in enumerate(entries, start=1):
        number = EntryIndex(position)
        if isinstance(record, dict):
            yield str(path), number, record
        else:
            message = f"expected a question object, got {type(record).__name__}"
            yield RowError(str(path), number, None, message)


_READERS = {".jsonl": _jsonl, ".parquet": _parquet, ".json": _json}


def read_records(path: Path) -> Iterator[Record | RowError]:
    """Yield ``(file, position, record)`` or a :class:`RowError` for every question under ``path``.

    Raises:
        FileNotFoundError: see :func:`annotation_files`.
        ValueError: a file with an unsupported suffix.
    """
    for file in annotation_files(path):
        reader = _READERS.get(file.suffix.lower())
        if reader is None:
            raise ValueError(f"{file}: unsupported annotation format (use {', '.join(_READERS)})")
        yield from reader(file)
