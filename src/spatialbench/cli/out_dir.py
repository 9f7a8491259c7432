"""The ``--out`` check every sub-command that writes files makes before doing any work."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from spatialbench.cli.apps import CommandError
from spatialbench.errors import SpatialBenchError


def prepare_out_dir(out: Path, option: str = "--out") -> Path:
    """Create ``out`` (with parents) and check that a file can be written in it, before any work is done.

    Raises:
        CommandError: (exit 2) naming ``option`` and the path: an existing file, a path below a file, no
            permission, read-only file system.
    """
    probe = out / f".spatialbench-write-test-{os.getpid()}"
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe.touch()
        probe.unlink()
    except OSError as err:
        why = "exists and is not a folder" if out.exists() and not out.is_dir() else err.strerror or str(err)
        raise CommandError(f"{option} {out}: not a writable folder ({why})") from None
    return out


#: what marks a run folder (``spatialbench run``, ``import``, ``merge``): its record or its store
RUN_MARKS = ("config.json", "run.sqlite")
SHOWN_FILES = 3


def check_replaceable(out: Path, own: tuple[str, ...], what: str, option: str = "--out") -> None:
    """Refuse an ``out`` whose files a command writing ``own`` would replace or mix with, before any work.

    ``out`` may be new, empty or an earlier output of the command (it holds one of ``own``); a run folder
    (its scores are the run's own) or a folder of other files is refused.

    Raises:
        CommandError: (exit 2) naming ``option``, the folder and what it holds.
    """
    if not out.is_dir():
        return  # new (made later), or a file: prepare_out_dir words that
    if any((out / mark).exists() for mark in RUN_MARKS):
        raise CommandError(f"{option} {out}: a run folder; writing the {what} there would replace the run's "
                           "own files: choose another folder")
    names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    if names and not any((out / name).exists() for name in own):
        shown = ", ".join(names[:SHOWN_FILES]) + (", …" if len(names) > SHOWN_FILES else "")
        raise CommandError(f"{option} {out}: holds other files ({shown}) and no earlier {what}: choose a new "
                           "or empty folder")


def missing_folders(out: Path) -> list[Path]:
    """Return ``out`` and its parents that do not exist yet, deepest first.

    These are the folders :func:`prepare_out_dir` will create.
    """
    folders: list[Path] = []
    for folder in (out, *out.absolute().parents):
        if folder.exists():
            break
        folders.append(folder)
    return folders


def remove_empty(folders: list[Path]) -> None:
    """Remove each folder of ``folders`` (deepest first) that is still empty; anything with files stays."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:  # not empty (or gone): keep it and everything above it
            return


@contextmanager
def new_out_dir(out: Path, option: str = "--out") -> Iterator[Path]:
    """Prepare ``out`` as :func:`prepare_out_dir` does; a set-up error in the block removes what it created.

    A :class:`~spatialbench.errors.SpatialBenchError` (not a run folder, unreadable input) escaping the
    block removes the folders this call created, while still empty, so that a refused command leaves
    nothing behind; an existing folder is always kept.

    Raises:
        CommandError: as :func:`prepare_out_dir`.
    """
    created = missing_folders(out)
    prepare_out_dir(out, option)
    try:
        yield out
    except SpatialBenchError:
        remove_empty(created)
        raise
