"""The columns a benchmark's file must have: checked once per file, before any row is read.

A file without its ``answer`` column used to load as one "'' is not one of the options" row error per row,
then "no usable items". Each loader declares its required columns per file kind in a :class:`Columns`; the
shared readers (:mod:`~.tsv`) refuse a file lacking one in one line, ``FILE: no column 'answer' (columns:
...)``. A kit TSV is also refused when its :class:`~.tsv_kind.TsvKind` column holds none of the benchmark's
values (:func:`check_kind`). Every :class:`Columns` made is remembered, so :func:`looks_like` can name the
benchmark whose columns (and, for a TSV, kind values) a refused file has (``--benchmark embspatial`` given
``ViewSpatial-Bench.json``, ``--benchmark cvbench`` given ``BLINK.tsv``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.shared.tsv_kind import TsvKind
from spatialbench.records.errors import AnnotationFileError

Required = tuple[str | tuple[str, ...], ...]
"""Column names; a tuple among them is alternatives (``("image", "image_path")``: one of them)."""

_MADE: list[Columns] = []  # every Columns declared, in import order (for looks_like)


@dataclass(frozen=True)
class Columns:
    """The columns benchmark ``name``'s files must have, by suffix (``{".tsv": ("index", "answer")}``).

    ``kind``: what marks its VLMEvalKit/EASI TSV among the others, whose columns are alike.
    """

    name: str
    by_suffix: Mapping[str, Required]
    kind: TsvKind | None = None

    def __post_init__(self) -> None:
        _MADE.append(self)

    def missing(self, suffix: str, columns: Iterable[str]) -> str | None:
        """Return the first required column of a ``suffix`` file absent from ``columns`` (quoted), or None."""
        have = set(columns)
        for name in self.by_suffix.get(suffix.lower(), ()):
            names = (name,) if isinstance(name, str) else name
            if not have.intersection(names):
                return " / ".join(repr(n) for n in names)
        return None

    def fits(self, suffix: str, columns: list[str], rows: Iterable[Mapping[str, Any]]) -> bool:
        """Whether a ``suffix`` file with ``columns`` and ``rows`` has all this benchmark needs of one."""
        if not self.by_suffix.get(suffix.lower()) or self.missing(suffix, columns) is not None:
            return False
        return self.kind is None or suffix.lower() != ".tsv" or self.kind.problem(columns, rows) is None


class WrongFileError(AnnotationFileError):
    """A file is not benchmark ``name``'s (exit 2); ``columns``, ``rows``: what it has (rows: a TSV's)."""

    def __init__(self, table: Path, reason: str, columns: list[str], name: str,
                 rows: list[Mapping[str, Any]] | None = None) -> None:
        super().__init__(table, reason)
        self.table, self.columns, self.name, self.rows = table, columns, name, rows or []


class MissingColumnError(WrongFileError):
    """A file lacks a column its benchmark needs (exit 2)."""

    def __init__(self, table: Path, missing: str, columns: list[str], name: str,
                 rows: list[Mapping[str, Any]] | None = None) -> None:
        reason = f"no column {missing} (columns: {', '.join(columns) or 'none'})"
        super().__init__(table, reason, columns, name, rows)


def check_kind(table: Path, columns: Iterable[Any], rows: list[Mapping[str, Any]], wanted: Columns) -> None:
    """Refuse kit TSV ``table`` unless its rows have values of ``wanted``'s kind (none declared: any TSV).

    Raises:
        WrongFileError (an AnnotationFileError): :meth:`~.tsv_kind.TsvKind.problem`'s line, with the rows.
    """
    have = [str(c) for c in columns]
    problem = None if wanted.kind is None else wanted.kind.problem(have, rows)
    if problem is not None:
        raise WrongFileError(table, problem, have, wanted.name, rows)


def check_columns(table: Path, columns: Iterable[Any], wanted: Columns | None,
                  rows: list[Mapping[str, Any]] | None = None) -> None:
    """Refuse ``table`` when one of the columns ``wanted`` requires of its suffix is not in ``columns``.

    Raises:
        MissingColumnError (an AnnotationFileError): the first missing one, with the columns the file has.
    """
    have = [str(c) for c in columns]
    missing = None if wanted is None else wanted.missing(table.suffix, have)
    if wanted is not None and missing is not None:
        raise MissingColumnError(table, missing, have, wanted.name, rows)


def record_columns(records: Iterable[Any]) -> list[str]:
    """Return the keys of the object records of a JSON file, each once, in first-seen order."""
    seen: dict[str, None] = {}
    for record in records:
        if isinstance(record, Mapping):
            seen.update(dict.fromkeys(str(k) for k in record))
    return list(seen)


def looks_like(error: WrongFileError) -> list[str]:
    """Return the other benchmarks (names) whose declared columns (and TSV kind) the refused file has, once.

    Only benchmarks whose loader is imported are known; :meth:`BenchmarkSpec.load_items` imports them all.
    """
    names = (c.name for c in _MADE
             if c.name != error.name and c.fits(error.table.suffix, error.columns, error.rows))
    return list(dict.fromkeys(names))
