"""A malformed sample met while loading, turned into the registry's :class:`RowError` so the rest still loads.

A loader raises :class:`MalformedSampleError` for one sample (missing frame file, placeholder count not
matching the media, an answer outside its options...), records :meth:`MalformedSampleError.row_error` in
``LoadedItems.errors`` and goes on with the next sample. The message names the sample id and the field.
A file that cannot be parsed at all is an :class:`AnnotationFileError` (one line naming file and line).
"""

from __future__ import annotations

import json
from pathlib import Path

from spatialbench.errors import SpatialBenchError
from spatialbench.records.rows import RowError

NOT_PARQUET = "not a Parquet file (it does not end in Parquet's PAR1 marker; JSON or CSV renamed .parquet?)"
"""The reason for a ``.parquet`` file whose bytes are not Parquet (pyarrow's "magic bytes" error)."""


class MalformedSampleError(SpatialBenchError, ValueError):
    """One sample of a benchmark file is malformed.

    Attributes:
        sample_id: the sample's id (official id, or ``<table>:<row>`` for files without ids).
        field: the field at fault, e.g. ``"frames_list[1][0]"`` or ``"user_prompt"``.
        reason: what is wrong, naming the file when a file is missing.
    """

    def __init__(self, sample_id: str, field: str, reason: str) -> None:
        super().__init__(f"sample {sample_id!r}, field {field!r}: {reason}")
        self.sample_id = sample_id
        self.field = field
        self.reason = reason
        self.location = f"{sample_id}:{field}"

    def row_error(self, file: str, line: int | None = None) -> RowError:
        """Return the registry's record of this error; its text names the file, field and sample id.

        An empty id (a row without one) is left out: the file and line already say which row it is.
        """
        sample = f"sample {self.sample_id!r}: " if self.sample_id else ""
        return RowError(file, line, self.field, f"{sample}{self.reason}")


class AnnotationFileError(SpatialBenchError, ValueError):
    """A whole annotation file cannot be read (not UTF-8, empty, not JSON/CSV/Parquet); nothing of it loads.

    ``str()`` is one line naming the file, then the reason, which names the line where known
    (``FILE: not UTF-8 text at line 3 (byte 0xe9)...``).
    """

    def __init__(self, path: str | Path, reason: str, line: int | None = None) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason, self.line = str(path), reason, line
        self.location = self.path if line is None else f"{self.path}:{line}"


def unreadable(path: str | Path, error: Exception) -> AnnotationFileError:
    """Describe why ``path`` could not be parsed: bad bytes (with their line), bad JSON, an empty table.

    Use as ``except (ValueError, OSError) as e: raise unreadable(path, e) from None`` around the parser.
    """
    if isinstance(error, AnnotationFileError):
        return error
    if isinstance(error, UnicodeDecodeError):
        line, byte = _first_bad_byte(path, error)
        at = f" at line {line}" if line is not None else ""
        return AnnotationFileError(path, f"not UTF-8 text{at} (byte {byte:#04x}); save it as UTF-8", line)
    if isinstance(error, json.JSONDecodeError):
        if not error.doc.strip():
            return AnnotationFileError(path, "empty file (expected JSON)")
        reason = f"invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        return AnnotationFileError(path, reason, error.lineno)
    if type(error).__name__ == "EmptyDataError":  # pandas: no header row at all
        return AnnotationFileError(path, "empty file (no header row)")
    if "Parquet magic bytes not found" in str(error):  # pyarrow: the file does not end in b"PAR1"
        return AnnotationFileError(path, NOT_PARQUET)
    reason = str(error)
    for quote in ("'", '"', ""):  # the file is already named in front
        reason = reason.replace(f"{quote}{path}{quote}", "the file")
    return AnnotationFileError(path, f"cannot be read: {reason.strip() or type(error).__name__}")


def _first_bad_byte(path: str | Path, error: UnicodeDecodeError) -> tuple[int | None, int]:
    """Line and value of the file's first byte that is not UTF-8.

    Parsers decode in chunks (pandas), so ``error.start`` may be an offset in a chunk: the file is decoded
    again here. Falls back to the error's own byte (no line) when the file cannot be re-read.
    """
    try:
        data = Path(path).read_bytes()
        data.decode("utf-8")
    except UnicodeDecodeError as whole:
        return data[: whole.start].count(b"\n") + 1, data[whole.start]
    except OSError:
        pass
    return None, error.object[error.start]
