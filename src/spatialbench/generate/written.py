"""The files a generator wrote into a folder, so that a re-run replaces or removes those and nothing else.

Each generator that writes into a user's ``--out`` declares where it writes (:class:`OwnedFiles`: names at
the top of the folder, folders it fills alone, top-level patterns it will not share) and keeps a journal,
``OUT/<journal>``: the line :attr:`OwnedFiles.header`, then one relative posix path a line. Paths are
appended (and flushed) before the files are written, so even an interrupted run leaves every file it
wrote recorded, at a cost linear in the number of files. A run first calls :meth:`OwnedFiles.check_folder`
(refuses a folder holding files the generator did not record under the names it writes — a user's
``test.jsonl``, another generator's ``manifest.json`` — before anything is touched), then replaces or
removes only recorded files (:meth:`OwnedFiles.remove_recorded`).

Used by ``generate remindview`` (:mod:`spatialbench.generate.remindview.written`), ``generate synthetic``
(:mod:`spatialbench.generate.synthetic.folder`) and ``demo``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from spatialbench.errors import SpatialBenchError

SHOWN = 5
"""How many foreign files a refusal names (the rest are counted)."""


class ForeignFilesError(SpatialBenchError, ValueError):
    """``out`` holds files a generator did not record writing where it writes (the message names them)."""


def _real_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def _entries(root: Path, keep: Callable[[Path], bool]) -> list[Path]:
    """Everything under ``root`` (none if absent) passing ``keep``, never descending into a linked folder."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        found += [p for p in (Path(folder) / n for n in [*dirs, *files]) if keep(p)]
    return found


@dataclass(frozen=True)
class OwnedFiles:
    """Where one generator writes in a folder, and the journal of what it wrote (module docstring).

    ``command``: the command's name in messages (``generate remindview``); ``journal``: the journal's
    file name; ``top_files``: names it writes at the top of the folder; ``folders``: folders it fills
    alone (everything under them is its own or foreign); ``patterns``: other top-level globs it will not
    share (``*.csv``: the ReMindView loader reads every QA table of the folder).
    """

    command: str
    journal: str
    top_files: tuple[str, ...]
    folders: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()

    @property
    def header(self) -> str:
        """The journal's first line."""
        return f"# files written by spatialbench {self.command} (a re-run removes these)"

    def recorded(self, out: Path) -> set[str]:
        """Relative paths recorded in the journal of ``out`` (none when absent).

        Raises:
            ForeignFilesError: the journal exists but does not start with :attr:`header`.
        """
        path = out / self.journal
        if not path.exists():
            return set()
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            lines = []
        if not lines or lines[0] != self.header:
            raise ForeignFilesError(f"{path}: not a file list written by {self.command}")
        return {f for f in lines[1:] if f and ".." not in Path(f).parts and not Path(f).is_absolute()}

    def check_folder(self, out: Path, planned: Iterable[str] = ()) -> set[str]:
        """Return the recorded paths of ``out``; refuse a folder this generator may not write into.

        ``planned``: more relative paths this run will write (a synthetic run's scene files).

        Raises:
            ForeignFilesError: names (up to :data:`SHOWN`) the unrecorded files present under the names
                it writes (``top_files``, ``planned``, anything under ``folders``, ``patterns``).
        """
        own = self.recorded(out)
        candidates = [out / name for name in (*self.top_files, *planned)]
        candidates += [p for pattern in self.patterns for p in sorted(out.glob(pattern))]
        for folder in self.folders:
            candidates += sorted(_entries(out / folder, lambda p: p.is_symlink() or not p.is_dir()))
        present = {p.relative_to(out).as_posix() for p in candidates if p.exists() or p.is_symlink()}
        foreign = sorted(present - own)
        if foreign:
            more = len(foreign) - SHOWN
            shown = ", ".join(foreign[:SHOWN]) + (f" and {more} more" if more > 0 else "")
            raise ForeignFilesError(
                f"{out} holds files {self.command} did not write ({shown}); move them or choose another --out"
            )
        return own

    def remove_recorded(self, out: Path, own: set[str]) -> None:
        """Delete the recorded files of ``out``, then the folders under ``folders`` left empty."""
        for name in sorted(own):
            (out / name).unlink(missing_ok=True)
        for folder in self.folders:
            root = out / folder
            if root.is_dir():
                for sub in sorted(_entries(root, _real_dir), key=lambda p: -len(p.parts)):
                    if not any(sub.iterdir()):
                        sub.rmdir()
                if not any(root.iterdir()):
                    root.rmdir()
        self.record(out, set())

    def record(self, out: Path, files: set[str]) -> None:
        """Write :attr:`header` and ``files`` (relative posix paths, sorted) to the journal of ``out``."""
        path = out / self.journal
        partial = path.with_name(f".{self.journal}.part")
        partial.write_text("".join(f"{line}\n" for line in [self.header, *sorted(files)]), encoding="utf-8")
        partial.replace(path)

    def existing(self, out: Path) -> set[str]:
        """Keep in the journal only the recorded files still present (after a run removed stale ones)."""
        kept = {name for name in self.recorded(out) if (out / name).exists()}
        self.record(out, kept)
        return kept


class Recorder:
    """The growing list of files of this run; :meth:`add` appends paths before they are written."""

    def __init__(self, out: Path, owned: OwnedFiles) -> None:
        """Start with nothing recorded (after :meth:`OwnedFiles.remove_recorded`, which wrote the header)."""
        self.out, self.owned, self.files = out, owned, set[str]()

    def add(self, *paths: Path | str) -> None:
        """Append the ``paths`` (relative to ``out``) not yet recorded, flushed to disk."""
        new = sorted({Path(p).as_posix() for p in paths} - self.files)
        if new:
            self.files.update(new)
            with (self.out / self.owned.journal).open("a", encoding="utf-8") as journal:
                journal.write("".join(f"{line}\n" for line in new))
