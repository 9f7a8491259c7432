"""Which benchmark a VLMEvalKit/EASI TSV belongs to: refuse another benchmark's file before reading it.

The kit's TSVs share their columns (``index``, ``image``, ``question``, ``A``..., ``answer``, ``category``),
so a 3DSRBench TSV reads as MMSI-Bench questions without a single row error. Each benchmark names a
column whose values are its own (3DSRBench's twelve question types, MMSI-Bench's eleven and MSR, CV-Bench's
image sources...) in a :class:`TsvKind`; :meth:`TsvKind.problem` refuses a file in which that column is
missing or holds none of them, in one line naming the values found and the ones expected.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

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

    def problem(self, columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> str | None:
        """Return why a TSV with ``columns`` and ``rows`` is not this benchmark's (one line), or None.

        Not its: the column is missing, or none of its values is the benchmark's.
        """
        column = next((c for c in self.columns if c in columns), None)
        if column is None:
            found = ", ".join(str(c) for c in columns)
            wanted = " / ".join(self.columns)
            return (f"not a TSV of {self.title}: no {wanted} column (its columns: {found}); "
                    "another benchmark's file?")
        seen = sorted({str(r.get(column) or "").strip() for r in rows} - {""})
        if any(self.normal(v) in self.values for v in seen):
            return None
        shown = ", ".join(seen[:_SHOWN]) + (", ..." if len(seen) > _SHOWN else "") if seen else "all empty"
        expected = ", ".join(self.values[:_SHOWN]) + (", ..." if len(self.values) > _SHOWN else "")
        return (f"not a TSV of {self.title}: its {column} values ({shown}) are none of {self.title}'s "
                f"{self.what} ({expected}); another benchmark's file?")
