"""The ``--out`` check every sub-command that writes files makes before doing any work."""

from __future__ import annotations

import os
from pathlib import Path

from spatialbench.cli.apps import CommandError


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
