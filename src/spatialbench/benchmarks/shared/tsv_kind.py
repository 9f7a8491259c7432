"""Which benchmark a VLMEvalKit/EASI TSV belongs to: refuse another benchmark's file before reading it.

The kit's TSVs share their columns (``index``, ``image``, ``question``, ``A``..., ``answer``, ``category``),
so a 3DSRBench TSV reads as MMSI-Bench questions without a single row error. Each benchmark names a
column whose values are its own (3DSRBench's twelve question types, MMSI-Bench's eleven and MSR, CV-Bench's
image sources...) in a :class:`TsvKind`; :func:`check_kind` refuses a file in which that column is missing
or holds none of them, in one line naming the file, the values found and the ones expected.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spatialbench.records.errors import AnnotationFileError

_SHOWN = 4  # values named in the message, each way


def _stripped(value: str) -> str:
    return value.strip()


@dataclass(frozen=True)
class TsvKind:
    """What marks one benchmark's TSV: the first of ``columns`` the file has holds its ``values``.

    ``normal`` maps a cell before it is compared (BLINK writes ``Relative Depth`` for ``Relative_Depth``);
    ``what`` names the values in the message (``question types``).
    """

    title: str
    columns: tuple[str, ...]
    values: tuple[str, ...]
    what: str
    normal: Callable[[str], str] = field(default=_stripped)


def check_kind(table: Path, columns: Sequence[str], rows: Iterable[Mapping[str, Any]], kind: TsvKind) -> None:
    """Refuse ``table`` unless one of its rows has a value of ``kind`` in ``kind``'s column.

    Raises:
        AnnotationFileError (a ValueError): the column is missing, or none of its values is the benchmark's.
    """
    column = next((c for c in kind.columns if c in columns), None)
    if column is None:
        found = ", ".join(str(c) for c in columns)
        raise AnnotationFileError(
            table,
            f"not a TSV of {kind.title}: no {' / '.join(kind.columns)} column "
            f"(its columns: {found}); another benchmark's file?",
        )
    seen = sorted({str(r.get(column) or "").strip() for r in rows} - {""})
    if any(kind.normal(v) in kind.values for v in seen):
        return
    shown = ", ".join(seen[:_SHOWN]) + (", ..." if len(seen) > _SHOWN else "") if seen else "all empty"
    expected = ", ".join(kind.values[:_SHOWN]) + (", ..." if len(kind.values) > _SHOWN else "")
    raise AnnotationFileError(
        table,
        f"not a TSV of {kind.title}: its {column} values ({shown}) are none of "
        f"{kind.title}'s {kind.what} ({expected}); another benchmark's file?",
    )
