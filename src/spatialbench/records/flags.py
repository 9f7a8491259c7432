"""Review flags: a person marks a question wrong, ambiguous or fine, with a note.

The flags file (``WORKDIR/flags.jsonl``, written by ``spatialbench serve``) is JSON Lines, one review per
line, appended, never rewritten::

    {"benchmark": "vsibench", "id": "123", "flag": "wrong", "note": "two tables in view", "reviewer": "ana",
     "time": 1764580000.0}

``flag`` is ``wrong``, ``ambiguous`` or ``fine``; the latest line of an (benchmark, id) wins, so marking an
item ``fine`` again takes it back. :func:`excluded_ids` gives the ids ``score --exclude FLAGS`` drops: those
whose latest flag is ``wrong`` or ``ambiguous`` (as VSI-Bench Sec. 3's human-in-the-loop review removes
flagged questions).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from spatialbench.errors import SpatialBenchError

FLAGS = ("wrong", "ambiguous", "fine")
EXCLUDED = ("wrong", "ambiguous")
FILE_NAME = "flags.jsonl"


class FlagFileError(SpatialBenchError, ValueError):
    """A flags file line that is not a review (the message names the file, the line and the field)."""


def append_flag(path: Path, benchmark: str, item_id: str, flag: str, note: str = "",
                reviewer: str = "") -> None:
    """Append one review to ``path`` (created with its folder).

    Raises:
        ValueError: ``flag`` not one of ``wrong``, ``ambiguous``, ``fine``.
    """
    if flag not in FLAGS:
        raise ValueError(f"flag must be one of {', '.join(FLAGS)}, not {flag!r}")
    entry = {"benchmark": benchmark, "id": str(item_id), "flag": flag, "note": note, "reviewer": reviewer,
             "time": time.time()}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")


def _entry(path: Path, number: int, line: str) -> dict[str, Any]:
    try:
        entry = json.loads(line)
    except json.JSONDecodeError as exc:
        raise FlagFileError(f"{path}:{number}: not JSON ({exc.msg})") from None
    if not isinstance(entry, dict):
        raise FlagFileError(f"{path}:{number}: a review is a JSON object")
    for field in ("id", "flag"):
        if field not in entry:
            raise FlagFileError(f"{path}:{number}: field {field!r} missing")
    if entry["flag"] not in FLAGS:
        allowed = ", ".join(FLAGS)
        raise FlagFileError(f"{path}:{number}: field 'flag': {entry['flag']!r} is not one of {allowed}")
    return entry


def latest_flags(path: Path, benchmark: str | None = None) -> dict[str, dict[str, Any]]:
    """Item id → its latest review (of ``benchmark`` only, when given; entries without one match any).

    Raises:
        FlagFileError: a line that is not a review; ``path`` a folder, below a file, unreadable or not
            UTF-8. FileNotFoundError: no file at ``path``.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as err:
        why = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        raise FlagFileError(f"{path}: not a readable flags file ({why or err})") from None
    latest: dict[str, dict[str, Any]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        entry = _entry(path, number, line)
        if benchmark is None or entry.get("benchmark") in (None, benchmark):
            latest[str(entry["id"])] = entry
    return latest


def excluded_ids(path: Path, benchmark: str | None = None) -> set[str]:
    """Ids whose latest flag is ``wrong`` or ``ambiguous`` (what ``score --exclude FLAGS`` leaves out).

    Raises:
        FlagFileError, FileNotFoundError: as :func:`latest_flags`.
    """
    return {i for i, entry in latest_flags(path, benchmark).items() if entry["flag"] in EXCLUDED}
