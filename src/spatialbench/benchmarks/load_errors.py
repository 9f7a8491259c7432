"""A malformed sample met while loading, turned into the registry's :class:`RowError` so the rest still loads.

A loader raises :class:`MalformedSampleError` for one sample (missing frame file, placeholder count not
matching the media, an answer outside its options...), records :meth:`MalformedSampleError.row_error` in
``LoadedItems.errors`` and goes on with the next sample. The message names the sample id and the field.
"""

from __future__ import annotations

from spatialbench.benchmarks.registry import RowError


class MalformedSampleError(ValueError):
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

    def row_error(self, file: str, line: int | None = None) -> RowError:
        """Return the registry's record of this error; its text names the file, field and sample id."""
        return RowError(file, line, self.field, f"sample {self.sample_id!r}: {self.reason}")
