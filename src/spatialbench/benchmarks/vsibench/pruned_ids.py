"""The VSI-Bench-Debiased pruned-id list: one id per line, read strictly.

Rules (a wrong list silently changes the debiased score, so nothing is guessed):

* the file is UTF-8 (a byte-order mark is dropped; a byte that is not UTF-8 is an error naming its line);
* a line is an official integer id (``1234``) or a derived id of an id-less annotation file
  (``<scene_name>-<12 hex>``, optionally ``-2``, ``-3``…; see ``vsibench.derived_id``);
  surrounding whitespace is ignored;
* blank lines and lines starting with ``#`` (comments) are skipped;
* any other line (``abc``, ``1.5``, ``12 34``) is an error naming the file and line numbers, and a file
  without any id is an error too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from spatialbench.records.files import read_text

_ID = re.compile(r"\d+|\S+-[0-9a-f]{12}(?:-\d+)?")
_SHOWN = 5
#: the options that name a pruned-id list (``spatialbench score`` / ``spatialbench run``)
OPTION_NAMES = "--pruned-ids, or --option pruned_ids=FILE"


def read_pruned_ids(source: str | Path | Iterable[Any]) -> set[str]:
    """Ids removed by bias pruning, from a file (rules in the module docstring) or an iterable of ids.

    Raises:
        FileNotFoundError: the file is missing (the message names both ``--pruned-ids`` and
            ``--option pruned_ids=FILE``).
        ValueError: a line is not an id (file and line numbers named), or the file holds no id.
    """
    if not isinstance(source, (str, Path)):
        return {str(i) for i in source}
    ids, junk = set(), []
    for number, raw in enumerate(_read(Path(source)).splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if _ID.fullmatch(line):
            ids.add(line)
        else:
            junk.append(f"line {number}: {line[:40]!r}")
    if junk:
        shown = "; ".join(junk[:_SHOWN]) + (f"; ... ({len(junk)} in all)" if len(junk) > _SHOWN else "")
        raise ValueError(f"{source}: not an id (integer or derived <scene>-<12 hex> id): {shown}")
    if not ids:
        raise ValueError(f"{source}: no pruned id in the file (one id per line)")
    return ids


def _read(path: Path) -> str:
    """Return the list's text (byte-order mark dropped; a non-UTF-8 byte: ValueError naming its line)."""
    try:
        return read_text(path)
    except FileNotFoundError:
        raise FileNotFoundError(f"pruned-id list ({OPTION_NAMES}) not found: {path}") from None
