"""A per-run frame cache: each (media, strategy, size) is decoded once however many items use it.

VSI-Bench asks ~18 questions per video; the runner orders items by media so a video's questions run
together, and the cache keeps recent samples (least recently used out once ``max_bytes`` is exceeded).
Failures are cached too, so a corrupt video is tried once and each of its items gets the same error.
Thread-safe: concurrent requests for one key wait for a single decode.

``aks:N`` picks frames per question, so its key holds the question too; the scorer it is given keeps the
image features of each video (:mod:`spatialbench.media.relevance`), so a video's frames are scored once.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import Counter, OrderedDict
from pathlib import Path

from spatialbench.media.digests import MediaDigests, resolve_path
from spatialbench.media.errors import MediaError
from spatialbench.media.frames import sample_frame_folder, single_image
from spatialbench.media.relevance import FrameScores, ImageTextScorer
from spatialbench.media.sampling import FrameStrategy
from spatialbench.media.video import SampledFrames, sample_video
from spatialbench.records.item import MediaKind, MediaRef

CacheKey = tuple[object, ...]
log = logging.getLogger(__name__)


def load_media(
    ref: MediaRef,
    root: Path | None,
    strategy: FrameStrategy,
    max_pixels: int | None,
    scores: FrameScores | None = None,
) -> SampledFrames:
    """Sample one media reference without caching (video, frame folder or image).

    ``scores``: the question's relevance of the media's frames (``aks:N`` only).

    Raises:
        MediaError: the media cannot be used; the message names the file.
    """
    path = resolve_path(ref, root)
    if ref.kind is MediaKind.VIDEO:
        return sample_video(path, strategy, ref.start, ref.end, max_pixels, scores)
    if ref.kind is MediaKind.FRAMES:
        return sample_frame_folder(
            path, ref.frames, ref.timestamps, strategy, ref.start, ref.end, max_pixels, scores
        )
    return single_image(path, max_pixels)


class FrameCache:
    """Memoises :func:`load_media` per (media, strategy, max_pixels; the question for ``aks:N``).

    Args:
        root: folder that relative media paths are resolved against (the benchmark's data root).
        max_bytes: pixel memory kept before least-recently-used entries are dropped.
        scorer: the image–text scorer of ``aks:N`` (None: ``aks:N`` media fail with a MediaError).
    """

    def __init__(
        self, root: Path | None = None, max_bytes: int = 2 * 1024**3, scorer: ImageTextScorer | None = None
    ) -> None:
        self.root = root
        self.max_bytes = max_bytes
        self.scorer = scorer
        self._digests = MediaDigests(root)  # what the scorer's feature cache is keyed by
        self.decodes: Counter[str] = Counter()  # media path → times decoded (for checks and reports)
        self._entries: OrderedDict[CacheKey, SampledFrames | MediaError] = OrderedDict()
        self._locks: dict[CacheKey, threading.Lock] = {}
        self._guard = threading.Lock()
        self._warned_short = False  # "uniform:N beyond the frame count" is said once per cache (run)
        self.expect_short = False  # media shorter than uniform:N are the benchmark's design: no warning

    def key(
        self, ref: MediaRef, strategy: FrameStrategy, max_pixels: int | None, query: str | None = None
    ) -> CacheKey:
        """Cache key: resolved media identity, segment, strategy name, size limit (aks:N: the question)."""
        name = "image" if ref.kind is MediaKind.IMAGE else strategy.name
        path = resolve_path(ref, self.root)
        asked = query if strategy.kind == "aks" and ref.kind is not MediaKind.IMAGE else None
        return (ref.kind.value, path, ref.frames, ref.timestamps, ref.start, ref.end, name, max_pixels, asked)

    def get(
        self, ref: MediaRef, strategy: FrameStrategy, max_pixels: int | None = None, query: str | None = None
    ) -> SampledFrames:
        """Return the sampled frames of ``ref``, decoding only on the first request for its key.

        ``query``: the question frames are chosen for (``aks:N``; the item's question text).

        Raises:
            MediaError: the media cannot be used (the same error for every later request).
        """
        key = self.key(ref, strategy, max_pixels, query)
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            entry = self._lookup(key)
            if entry is None:
                self.decodes[str(key[1])] += 1
                try:
                    entry = load_media(
                        ref, self.root, strategy, max_pixels, self._scores(ref, strategy, query)
                    )
                    if ref.kind is not MediaKind.IMAGE:  # a still image is one frame, not short of any
                        self._warn_if_short(strategy, entry)
                except MediaError as exc:
                    entry = exc
                self._store(key, entry)
        if isinstance(entry, MediaError):
            raise entry
        return entry

    def _scores(self, ref: MediaRef, strategy: FrameStrategy, query: str | None) -> FrameScores | None:
        """Return the relevance of ``ref``'s frames to ``query`` (None unless ``aks:N`` has a scorer)."""
        if strategy.kind != "aks" or self.scorer is None or query is None:
            return None
        digest = hashlib.sha256("".join(self._digests.of(ref)).encode()).hexdigest()
        return self.scorer.scores(resolve_path(ref, self.root), digest, query)

    def _warn_if_short(self, strategy: FrameStrategy, frames: SampledFrames) -> None:
        """Warn once when ``uniform:N`` exceeds a media's frame count (every frame is then sent)."""
        if strategy.kind != "uniform" or len(frames.indices) >= strategy.count or self._warned_short:
            return
        if self.expect_short:  # the benchmark's media are shorter by design (RunDefaults.frames_ceiling)
            return
        self._warned_short = True
        log.warning(
            "%s asks for more frames than %s has (%d frames): all of its frames are sent "
            "(said once per run; other media may be short too)",
            strategy.name,
            frames.source,
            len(frames.indices),
        )

    def peek(
        self, ref: MediaRef, strategy: FrameStrategy, max_pixels: int | None = None, query: str | None = None
    ) -> SampledFrames | None:
        """Return the cached frames of ``ref`` without decoding (None when not cached or failed)."""
        entry = self._lookup(self.key(ref, strategy, max_pixels, query))
        return entry if isinstance(entry, SampledFrames) else None

    def evict(
        self, ref: MediaRef, strategy: FrameStrategy, max_pixels: int | None = None, query: str | None = None
    ) -> SampledFrames | None:
        """Drop the cached frames (or cached failure) of ``ref``; return the frames dropped, if any.

        The runner calls it once no pending item needs them; a later :meth:`get` decodes again.
        """
        key = self.key(ref, strategy, max_pixels, query)
        with self._guard:
            entry = self._entries.pop(key, None)
        return entry if isinstance(entry, SampledFrames) else None

    def _lookup(self, key: CacheKey) -> SampledFrames | MediaError | None:
        with self._guard:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def _store(self, key: CacheKey, entry: SampledFrames | MediaError) -> None:
        with self._guard:
            self._entries[key] = entry
            total = sum(e.nbytes for e in self._entries.values() if isinstance(e, SampledFrames))
            while total > self.max_bytes and len(self._entries) > 1:
                _, dropped = self._entries.popitem(last=False)
                total -= dropped.nbytes if isinstance(dropped, SampledFrames) else 0
