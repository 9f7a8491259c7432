"""The files ``generate remindview`` wrote into a folder, so a re-run removes those and nothing else.

``OUT/remindview_files.txt`` is the line ``HEADER`` then one relative posix path a line. Paths are
appended (and flushed) before each frame set's files are written, so even an interrupted run leaves
every file it wrote recorded, at a cost linear in the number of files. A run first calls
:func:`check_folder` (refuses a folder holding files this module did not record under the names it
writes, or any other ``*.csv``: the loader reads every QA table in the folder), then
:func:`remove_recorded`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from spatialbench.errors import SpatialBenchError
from spatialbench.synth.rigs import Rig

WRITTEN = "remindview_files.txt"
HEADER = "# files written by spatialbench generate remindview (a re-run removes these)"
TOP_FILES = ("object_centric_qa.csv", "view_centric_qa.csv", "manifest.json", "statistics.md")


class ForeignFilesError(SpatialBenchError, ValueError):
    """``out`` holds files this module did not record writing where it writes (message names them)."""


def _rig_folders() -> tuple[str, ...]:
    return tuple(f"{rig.value.replace('-', '_')}_outputs" for rig in Rig)


def recorded(out: Path) -> set[str]:
    """Relative paths recorded in ``out/remindview_files.txt`` (none when absent).

    Raises:
        ForeignFilesError: the file exists but does not start with ``HEADER`` (not this module's list).
    """
    path = out / WRITTEN
    if not path.exists():
        return set()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    if not lines or lines[0] != HEADER:
        raise ForeignFilesError(f"{path}: not a file list written by generate remindview")
    return {f for f in lines[1:] if f and ".." not in Path(f).parts and not Path(f).is_absolute()}


def _real_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def _entries(root: Path, keep: Callable[[Path], bool]) -> list[Path]:
    """Everything under ``root`` (none if absent) passing ``keep``, never descending into a linked folder."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        found += [p for p in (Path(folder) / n for n in [*dirs, *files]) if keep(p)]
    return found


def check_folder(out: Path) -> set[str]:
    """Return the recorded paths of ``out``; refuse a folder this module may not write into.

    Raises:
        ForeignFilesError: names (up to five) the unrecorded files under the names this module writes
            (``TOP_FILES``, anything under ``<rig>_outputs/``) and any other ``*.csv`` in ``out``.
    """
    own = recorded(out)
    candidates = [out / name for name in TOP_FILES] + sorted(out.glob("*.csv"))
    for folder in _rig_folders():
        candidates += sorted(_entries(out / folder, lambda p: p.is_symlink() or not p.is_dir()))
    present = {p.relative_to(out).as_posix() for p in candidates if p.exists() or p.is_symlink()}
    foreign = sorted(present - own)
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise ForeignFilesError(
            f"{out} holds files generate remindview did not write ({shown}); "
            "move them or choose another --out"
        )
    return own


def remove_recorded(out: Path, own: set[str]) -> None:
    """Delete the recorded files of ``out``, then the folders under ``<rig>_outputs/`` left empty."""
    for name in sorted(own):
        (out / name).unlink(missing_ok=True)
    for folder in _rig_folders():
        root = out / folder
        if root.is_dir():
            for sub in sorted(_entries(root, _real_dir), key=lambda p: -len(p.parts)):
                if not any(sub.iterdir()):
                    sub.rmdir()
            if not any(root.iterdir()):
                root.rmdir()
    record(out, set())


def record(out: Path, files: set[str]) -> None:
    """Write ``HEADER`` and ``files`` (relative posix paths, sorted) to ``out/remindview_files.txt``."""
    path = out / WRITTEN
    partial = path.with_name(f".{WRITTEN}.part")
    partial.write_text("".join(f"{line}\n" for line in [HEADER, *sorted(files)]), encoding="utf-8")
    partial.replace(path)


class Recorder:
    """The growing list of files of this run; :meth:`add` appends paths before they are written."""

    def __init__(self, out: Path) -> None:
        """Start with nothing recorded (call after :func:`remove_recorded`, which wrote the header)."""
        self.out, self.files = out, set[str]()

    def add(self, *paths: Path | str) -> None:
        """Append the ``paths`` (relative to ``out``) not yet recorded, flushed to disk."""
        new = sorted({Path(p).as_posix() for p in paths} - self.files)
        if new:
            self.files.update(new)
            with (self.out / WRITTEN).open("a", encoding="utf-8") as journal:
                journal.write("".join(f"{line}\n" for line in new))
