"""Name the benchmark a refused file belongs to: ``--benchmark embspatial`` given ``ViewSpatial-Bench.json``.

A file of the wrong benchmark with the right suffix lacks one of the columns its loader needs
(:class:`~.shared.columns.MissingColumnError`), a kit TSV the values that mark it (a
:class:`~.shared.columns.WrongFileError` too); when it has all those another benchmark needs, the
one line says so, as the other "another benchmark's file?" refusals do.
"""

from __future__ import annotations

from pathlib import Path

from spatialbench.benchmarks import BENCHMARKS
from spatialbench.benchmarks.shared.columns import WrongFileError, looks_like
from spatialbench.records.errors import AnnotationFileError, unreadable
from spatialbench.registry import BrokenEntryError

__all__ = ["WrongFileError", "hinted"]


def hinted(path: str | Path, error: UnicodeError | WrongFileError) -> AnnotationFileError:
    """Return ``error`` with the benchmarks whose columns the file has named, or ``error`` itself (none).

    A decoding error that escaped a loader without a file name is named by ``path`` (the data given).
    """
    if isinstance(error, UnicodeError):
        return unreadable(path, error)
    for name in BENCHMARKS.names():  # a loader declares its columns when it is imported
        try:
            BENCHMARKS.get(name)
        except BrokenEntryError:  # a broken plug-in is named by its own command, not here
            continue
    names = looks_like(error)
    if not names:
        return error
    other = " or ".join(f"--benchmark {n}" for n in names)
    reason = error.reason.removesuffix("; another benchmark's file?")  # a kit TSV's refusal asks it already
    return AnnotationFileError(error.table, f"{reason}; another benchmark's file? (its columns are "
                               f"those of {other})")
