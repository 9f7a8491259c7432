"""Request keys: a hash of everything that decides what a model is asked.

``key = sha256(item record, media content digests, frame strategy, size limit, blind flag, prompt
fingerprint (builder, layout settings, template text), decoding settings, model identity)``.
Any change to one of these is a different key, hence a fresh request; nothing else (timeouts,
concurrency, output folder) changes it.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any

from spatialbench.media.cache import resolve_path
from spatialbench.records.item import Item, MediaKind, MediaRef
from spatialbench.records.messages import GenerationSettings


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


def model_identity(name: str) -> str:
    """Return the model name as keyed.

    An OpenAI-compatible endpoint's URL is dropped and its served model name kept: a server restarted on
    another port serves the same model.
    """
    provider, _, model = name.partition(":")
    if provider == "openai-compatible":
        return f"{provider}:{model.rpartition('#')[2]}"
    return name


def request_key(
    item: Item,
    media_digests: list[list[str]],
    *,
    frames: str,
    max_pixels: int | None,
    prompt: dict[str, Any],
    settings: GenerationSettings,
    model: str,
) -> str:
    """Hex sha256 of the canonical JSON of everything that shapes the request for ``item``."""
    record = {
        "item": item.model_dump(mode="json"),
        "media": media_digests,
        "frames": frames,
        "max_pixels": max_pixels,
        "prompt": prompt,
        "settings": asdict(settings),
        "model": model_identity(model),
    }
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()
