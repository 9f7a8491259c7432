"""Reading VSI-Bench-style records (one dict per question) from JSONL, Parquet and JSON files or folders.

Every record comes with its file and 1-based position: the line for JSONL, the row for Parquet, the
entry of the question list for JSON (an :class:`EntryIndex`, printed
``file: entry N``). A line that is not valid JSON becomes a :class:`RowError`; the
other records of the file are still returned.

Text is UTF-8; a leading byte-order mark (as Windows editors and Excel write it) is dropped. A JSONL line
that is not UTF-8 is a :class:`RowError` naming its line and byte (the other lines are read); a JSON file
that is not UTF-8 is one :class:`RowError` naming the first bad line; a UTF-16 file (byte-order mark) is
one :class:`RowError` saying so.

JSONL lines are parsed with orjson (a million annotation and prediction lines: ~4 µs a line less than the
standard library); a line orjson refuses or may read differently goes through :mod:`json` instead, so
every record, and every error message, is the standard library's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TextIO

import orjson

from spatialbench.errors import SpatialBenchError
from spatialbench.records.errors import unreadable
from spatialbench.records.rows import EntryIndex, RowError

SUFFIX_PRIORITY = (".jsonl", ".parquet", ".json")
Record = tuple[str, int, dict[str, Any]]
FileText = str | Callable[[TextIO], None]
"""A file's content for :func:`atomic_write_files`: its text, or a function writing it to an open file."""
PARQUET_BATCH = 65_536
"""Parquet rows converted to Python at a time."""
BOM = b"\xef\xbb\xbf"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")  # UTF-32 LE starts like UTF-16 LE
UTF16_TEXT = "UTF-16 text (it starts with a UTF-16 byte-order mark); save the file as UTF-8"
"""The message (and :class:`RowError` message) for a file that starts with a UTF-16 byte-order mark."""
DIGIT_MARKS = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))
"""``bytes.translate`` table: each digit becomes ``0``, any other byte a space (one C pass, no regex)."""
LONG_DIGITS = b"0" * 19
"""19 digits in a row (after :data:`DIGIT_MARKS`): an integer orjson may read as a float (beyond 64 bits,
or below -2**63), or a float with more digits than it is tested on; such a line is read by :mod:`json`."""


def not_utf8(err: UnicodeDecodeError, data: bytes, start: int = 0) -> tuple[int, str]:
    """Return ``(line, message)`` for a decode error of ``data`` (1-based line from ``start``)."""
    line = data.count(b"\n", 0, err.start) + 1 + start
    column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
    byte = data[err.start]
    return line, f"not UTF-8 text (byte 0x{byte:02x} at column {column}); save the file as UTF-8"


def utf8_bytes(path: Path) -> tuple[bytes, str | None]:
    """Return the bytes of ``path`` without a UTF-8 byte-order mark, and why it is not UTF-8 at all.

    The second value is None, or the message for a file that starts with a UTF-16 / UTF-32 byte-order
    mark (Excel's "Unicode Text" export) — its every line would fail to decode.
    """
    data = path.read_bytes()
    if data.startswith(UTF16_BOMS):
        return b"", UTF16_TEXT
    return data.removeprefix(BOM), None


TOO_DEEP = "nested too deeply to read (arrays or objects inside each other beyond Python's recursion limit)"
"""Why a JSON value nested thousands of levels deep is refused (json.loads raises RecursionError)."""


class NotUtf8Error(SpatialBenchError, ValueError):
    """A file that is not UTF-8 text: ``str()`` is ``FILE:LINE: not UTF-8 text (byte 0x.. at column C)...``.

    ``decode_error`` is the decoder's own error (None for a UTF-16 file), for callers with their own wording.
    """

    def __init__(self, message: str, decode_error: UnicodeDecodeError | None = None) -> None:
        super().__init__(message)
        self.decode_error = decode_error


def read_text(path: Path) -> str:
    """Return the text of a UTF-8 file without its byte-order mark.

    Raises:
        NotUtf8Error (a ValueError): the file is not UTF-8 (the message names the file, line and byte).
        OSError: the file cannot be read (FileNotFoundError when missing).
    """
    data, problem = utf8_bytes(path)
    if problem:
        raise NotUtf8Error(f"{path}:1: {problem}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, message = not_utf8(err, data)
        raise NotUtf8Error(f"{path}:{line}: {message}", err) from None


class WriteError(SpatialBenchError, OSError):
    """A file that could not be written: ``str()`` is ``cannot write PATH: REASON`` (PATH the final name).

    ``errno`` / ``strerror`` / ``filename`` are the failed write's (ENOSPC for a full disk).
    """

    def __init__(self, path: Path, err: OSError) -> None:
        super().__init__(err.errno, err.strerror or str(err), str(path))
        self.path = path
        self.location = str(path)

    def __str__(self) -> str:
        return f"cannot write {self.path}: {self.strerror}"


def atomic_write_files(files: Mapping[Path, FileText]) -> None:
    """Write a set of files (UTF-8) so that a reader sees the earlier set or the new one, never a mix.

    A file is given as its text, or as a function writing it to an open text file (``newline=""``: lines
    are written as given), for a large file made in chunks rather than held whole.
    Every file goes to ``<name>.part`` in its folder first; only when all were written are they renamed
    (``os.replace``, atomic on one file system; a rename needs no free space). On an error (a full disk)
    no file is renamed and every temporary is removed.

    Raises:
        WriteError (an OSError): a temporary cannot be written; it names the final file.
        OSError: a rename failed.
    """
    parts = {path: path.with_name(path.name + ".part") for path in files}
    try:
        for path, text in files.items():
            try:
                _write(parts[path], text)
            except OSError as err:
                raise WriteError(path, err) from err
        for path, part in parts.items():
            os.replace(part, path)
    finally:
        for part in parts.values():
            part.unlink(missing_ok=True)


def _write(path: Path, text: FileText) -> None:
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
        return
    with path.open("w", encoding="utf-8", newline="") as handle:
        text(handle)


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through ``<name>.part`` in its folder, renamed when complete.

    An error while writing (a full disk) leaves the earlier file, or none, never a truncated one; the
    temporary is removed (:func:`atomic_write_files` with one file).

    Raises:
        WriteError (an OSError): the temporary cannot be written; OSError: it cannot be renamed.
    """
    atomic_write_files({path: text})


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


def json_reason(err: json.JSONDecodeError) -> str:
    """Return the parser's reason without its trailing "at" (``Unterminated string starting at``).

    The place is written after it (``at column 27``); the parser's own ending made it "at at column 27".
    """
    return err.msg.removesuffix(" at")


def _jsonl_line(name: str, number: int, line: str) -> Record | RowError | None:
    if not line or line.isspace():  # as ``not line.strip()``, without copying the line
        return None
    try:
        record = json.loads(line)
    except json.JSONDecodeError as err:
        return RowError(name, number, None, f"not valid JSON ({json_reason(err)} at column {err.colno})")
    except RecursionError:
        return RowError(name, number, None, TOO_DEEP)
    if not isinstance(record, dict):
        return RowError(name, number, None, f"expected a JSON object, got {type(record).__name__}")
    return name, number, record


def _jsonl(path: Path) -> Iterator[Record | RowError]:
    """Yield the records of a JSONL file, read line by line (the file is never held whole)."""
    name = str(path)  # one string for every record of the file
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if number == 1:
                if raw.startswith(UTF16_BOMS):
                    yield RowError(name, 1, None, UTF16_TEXT)
                    return
                raw = raw.removeprefix(BOM)
            entry = jsonl_entry(name, number, raw)
            if entry is not None:
                yield entry


def jsonl_entry(name: str, number: int, raw: bytes) -> Record | RowError | None:
    """Return line ``number`` of JSONL file ``name`` (its bytes ``raw``) read: a record, a row error, None.

    None for a blank line. The record is orjson's when orjson reads it as ``json`` would
    (:func:`_fast_record`), else the standard library's (so is every error message).
    """
    raw = raw.removesuffix(b"\n")
    record = _fast_record(raw)
    if record is not None:
        return name, number, record
    try:
        return _jsonl_line(name, number, raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        return RowError(name, number, None, not_utf8(err, raw, number - 1)[1])


def _fast_record(raw: bytes) -> dict[str, Any] | None:
    """Return the JSON object of line ``raw`` as orjson reads it, or None: read it with :func:`_jsonl_line`.

    None for a line orjson refuses (bad JSON or UTF-8, a lone surrogate escape, NaN, a blank line: the
    standard library's verdict and message stand), one that is not an object, and one with 19 digits in a
    row (:data:`LONG_DIGITS`). Otherwise orjson's result equals ``json.loads``'s.
    """
    if LONG_DIGITS in raw.translate(DIGIT_MARKS):
        return None
    try:
        record = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return record if type(record) is dict else None


def _parquet(path: Path) -> Iterator[Record | RowError]:
    """Yield the rows of a Parquet file, converted batch by batch (never all rows as dicts at once)."""
    import pyarrow.parquet as pq

    name, number = str(path), 0
    try:
        table = pq.ParquetFile(path)
    except (OSError, ValueError) as error:  # pyarrow's ArrowInvalid is a ValueError
        raise unreadable(path, error) from None
    for batch in table.iter_batches(batch_size=PARQUET_BATCH):
        for record in batch.to_pylist():
            number += 1
            yield name, number, record


def _json(path: Path) -> Iterator[Record | RowError]:
    raw, problem = utf8_bytes(path)
    if problem:
        yield RowError(str(path), 1, None, problem)
        return
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        line, message = not_utf8(err, raw)
        yield RowError(str(path), line, None, message)
        return
    except json.JSONDecodeError as err:
        yield RowError(str(path), None, None, f"not valid JSON ({json_reason(err)} at line {err.lineno})")
        return
    except RecursionError:
        yield RowError(str(path), None, None, TOO_DEEP)
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
