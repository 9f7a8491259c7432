"""The columns a benchmark's file must have: checked once per file, before any row is read.

A file without its ``answer`` column used to load as one "'' is not one of the options" row error per row,
then "no usable items". Each loader declares its required columns per file kind in a :class:`Columns`; the
shared readers (:mod:`~.tsv`) refuse a file lacking one in one line, ``FILE: no column 'answer' (columns:
...)``. Every :class:`Columns` made is remembered, so :func:`looks_like` can name the benchmark whose
columns a refused file has (``--benchmark embspatial`` given ``ViewSpatial-Bench.json``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbench.records.errors import AnnotationFileError

Required = tuple[str | tuple[str, ...], ...]
"""Column names; a tuple among them is alternatives (``("image", "image_path")``: one of them)."""

_MADE: list[Columns] = []  # every Columns declared, in import order (for looks_like)


@dataclass(frozen=True)
class Columns:
    """The columns benchmark ``name``'s files must have, by suffix (``{".tsv": ("index", "answer")}``)."""

    name: str
    by_suffix: Mapping[str, Required]

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


class MissingColumnError(AnnotationFileError):
    """A file lacks a column its benchmark needs (exit 2); ``columns``: those it has, ``name``: whose."""

    def __init__(self, table: Path, missing: str, columns: list[str], name: str) -> None:
        super().__init__(table, f"no column {missing} (columns: {', '.join(columns) or 'none'})")
        self.table, self.columns, self.name = table, columns, name


def check_columns(table: Path, columns: Iterable[Any], wanted: Columns | None) -> None:
    """Refuse ``table`` when one of the columns ``wanted`` requires of its suffix is not in ``columns``.

    Raises:
        MissingColumnError (an AnnotationFileError): the first missing one, with the columns the file has.
    """
    have = [str(c) for c in columns]
    missing = None if wanted is None else wanted.missing(table.suffix, have)
    if wanted is not None and missing is not None:
        raise MissingColumnError(table, missing, have, wanted.name)


def record_columns(records: Iterable[Any]) -> list[str]:
    """Return the keys of the object records of a JSON file, each once, in first-seen order."""
    seen: dict[str, None] = {}
    for record in records:
        if isinstance(record, Mapping):
            seen.update(dict.fromkeys(str(k) for k in record))
    return list(seen)


def looks_like(error: MissingColumnError) -> list[str]:
    """Return the other benchmarks (names) whose declared columns the refused file has, each once.

    Only benchmarks whose loader is imported are known; :meth:`BenchmarkSpec.load_items` imports them all.
    """
    names = (c.name for c in _MADE if c.name != error.name
              and c.by_suffix.get(error.table.suffix.lower())
              and c.missing(error.table.suffix, error.columns) is None)
    return list(dict.fromkeys(names))
