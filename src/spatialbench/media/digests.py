"""Where a media reference's files are, and their content digests (request keys, the AKS feature cache)."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from spatialbench.records.item import MediaKind, MediaRef


def resolve_path(ref: MediaRef, root: Path | None) -> str:
    """Return the media path, joined to ``root`` when relative."""
    path = Path(ref.path)
    return str(path if path.is_absolute() or root is None else root / path)


class MediaDigests:
    """Content digests (sha256) of media files, each file read once per run; missing files digest as such."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self._memo: dict[str, str] = {}
        self._lock = threading.Lock()

    def _file(self, path: str) -> str:
        with self._lock:
            if path in self._memo:
                return self._memo[path]
        try:
            with open(path, "rb") as handle:
                digest = hashlib.file_digest(handle, "sha256").hexdigest()
        except OSError as exc:
            digest = f"unreadable:{type(exc).__name__}"
        with self._lock:
            self._memo[path] = digest
        return digest

    def of(self, ref: MediaRef) -> list[str]:
        """Digests of the file(s) behind ``ref`` (each listed frame for a frame folder)."""
        path = resolve_path(ref, self.root)
        if ref.kind is MediaKind.FRAMES:
            return [self._file(os.path.join(path, name)) for name in ref.frames]
        return [self._file(path)]
