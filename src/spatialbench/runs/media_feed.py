"""The frames of a run's pending items: prepared once, one media ahead, released after their last item.

The runner answers items in media order (:func:`~spatialbench.runs.plan.media_order`). :class:`MediaFeed`
counts, per media (frame-cache key), the pending items that use it. The first item asking for a media
starts its preparation in the decoding thread — one task per media, which every item of it awaits, so
waiting items hold no worker thread — and starts the preparation of the next media in order too, so a
video is ready before the requests about the one before it run out. Preparing a media is everything its
requests need before they can be sent: decoding its frames and encoding them for the wire (``warm``: the
back end's :meth:`~spatialbench.models.base.Backend.prepare_images`); a synthetic video's visibility
(read by answerability, not needed to send) is read beside it in a thread of its own
(:meth:`MediaFeed.visibility`). Issue 25: the encodings were made by the first requests of a video and
its visibility read by every one of them at once; nothing was in flight for 40-50 % of the 2-scene
demo's run. When an item is done (answered, failed or never sent), its media's count drops; at zero the
frames leave the frame cache and their encoded images leave the encoded-image cache
(:func:`~spatialbench.models.images.release_encodings`): a run holds the frames of the media in flight,
not a cache budget's worth (issue 16: a 5,000-item run peaked at 3.8 GB). A frame cache shared with
later runs (``spatialbench sweep``) keeps its frames: ``release=False``. Under ``aks:N`` the frames
depend on the question, so a media's key is per question (the scorer behind the cache still scores each
video's frames once).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.media.cache import CacheKey, FrameCache
from spatialbench.media.sampling import FrameStrategy
from spatialbench.media.video import SampledFrames
from spatialbench.media.visibility import FrameVisibility, find_visibility, verdict
from spatialbench.models.images import release_encodings
from spatialbench.records.item import Item, MediaKind, MediaRef

#: threads decoding media at once: one, so media decode in dispatch order (the next one first); the
#: decoder (PyAV, ``thread_type="AUTO"``) already uses several cores for one video
DECODERS = 1
#: threads encoding a media's frames for the wire once decoded (zlib releases the interpreter lock), beside
#: the decoding thread: the next media's decode does not wait for this one's encodings
ENCODERS = 2

Warm = Callable[[list[NDArray[np.uint8]]], None]
Verdict = dict[str, Any] | None  # an item's answerability (media.visibility.verdict)


class MediaFeed:
    """Frames of ``items`` (in the order they will be asked) from ``cache``, decoded ahead, then released.

    Args:
        cache: the run's frame cache (decodes once per key, keeps failures).
        strategy, max_pixels: how frames are sampled and resized (part of the cache key).
        items: the pending items in dispatch order; each one must later be passed to :meth:`done` once.
        release: drop a media's frames and encodings after its last item (False for a shared cache).
        warm: called in the decoding thread with each media's frames once decoded (encodes them ahead).
    """

    def __init__(
        self,
        cache: FrameCache,
        strategy: FrameStrategy,
        max_pixels: int | None,
        items: Sequence[Item],
        release: bool = True,
        warm: Warm | None = None,
    ) -> None:
        self.cache, self.strategy, self.max_pixels, self.release = cache, strategy, max_pixels, release
        self.warm = warm
        self._uses: Counter[CacheKey] = Counter()
        self._refs: dict[CacheKey, tuple[MediaRef, str]] = {}  # media order: first use; the question
        for item in items:
            for ref in item.media:
                key = self._key(ref, item)
                self._refs.setdefault(key, (ref, item.question))
                self._uses[key] += 1
        self._next = dict(zip(self._refs, list(self._refs)[1:], strict=False))  # key → the media after it
        self._tasks: dict[CacheKey, asyncio.Future[SampledFrames]] = {}  # key → its preparation
        self._visibility: dict[str, asyncio.Future[FrameVisibility | None]] = {}  # video path → its read
        self._pool = ThreadPoolExecutor(DECODERS, thread_name_prefix="spatialbench-decode")
        self._encoders = ThreadPoolExecutor(ENCODERS, thread_name_prefix="spatialbench-encode")
        self._aside = ThreadPoolExecutor(1, thread_name_prefix="spatialbench-visibility")

    def _key(self, ref: MediaRef, item: Item) -> CacheKey:
        return self.cache.key(ref, self.strategy, self.max_pixels, item.question)

    async def frames(self, item: Item) -> list[SampledFrames]:
        """Return the sampled frames of each media of ``item``; starts the next media's decode.

        Raises:
            MediaError: a media cannot be used (the same error for every item of it).
        """
        keys = [self._key(ref, item) for ref in item.media]
        for key in keys:
            self._start(key)
        if keys and keys[-1] in self._next:
            self._start(self._next[keys[-1]])
        return [await self._tasks[key] for key in keys]

    def _start(self, key: CacheKey) -> None:
        if key in self._tasks:
            return
        ref, question = self._refs[key]
        loop = asyncio.get_running_loop()
        task = asyncio.ensure_future(self._prepare(ref, question))
        task.add_done_callback(_observe)
        self._tasks[key] = task
        path = str(key[1])
        if ref.kind is MediaKind.VIDEO and path not in self._visibility:
            read = loop.run_in_executor(self._aside, find_visibility, path)
            read.add_done_callback(_observe)
            self._visibility[path] = read

    async def _prepare(self, ref: MediaRef, question: str) -> SampledFrames:
        """Decode ``ref`` (in the decoding thread), then encode its frames for the wire (encoding threads)."""
        loop = asyncio.get_running_loop()
        frames = await loop.run_in_executor(
            self._pool, self.cache.get, ref, self.strategy, self.max_pixels, question
        )
        if self.warm is not None:
            pixels = list(frames.pixels)
            parts = [pixels[k::ENCODERS] for k in range(ENCODERS) if pixels[k::ENCODERS]]
            await asyncio.gather(*(loop.run_in_executor(self._encoders, self.warm, part) for part in parts))
        return frames

    async def visibility(self, frames: SampledFrames) -> FrameVisibility | None:
        """Return the visibility of the video ``frames`` came from (read once, ahead), None without one."""
        read = self._visibility.get(frames.source)
        if read is None:
            return await asyncio.to_thread(find_visibility, frames.source)
        return await asyncio.shield(read)

    async def answerability(self, item: Item, media: list[SampledFrames]) -> Verdict:
        """Return ``item``'s answerability from the frames sent of its first video (None without visibility).

        :func:`~spatialbench.media.visibility.verdict` on the visibility read ahead; the runner stores it
        as the prompt record's ``answerability``.
        """
        videos = [m for ref, m in zip(item.media, media, strict=False) if ref.kind is MediaKind.VIDEO]
        if not videos:
            return None
        vis = await self.visibility(videos[0])
        return None if vis is None else verdict(item, vis, videos[0].indices.tolist())

    def done(self, item: Item) -> None:
        """Mark ``item`` finished; media no pending item needs any more are released."""
        for ref in item.media:
            key = self._key(ref, item)
            self._uses[key] -= 1
            if self._uses[key] > 0:
                continue
            del self._uses[key]
            task = self._tasks.pop(key, None)
            if not self.release:
                continue
            if task is None or task.done():
                self._evict(ref, item.question)
            else:  # a decode started ahead for items that were never sent: release it when it lands
                task.add_done_callback(lambda _, ref=ref, q=item.question: self._evict(ref, q))  # type: ignore[misc]

    def _evict(self, ref: MediaRef, question: str) -> None:
        frames = self.cache.evict(ref, self.strategy, self.max_pixels, question)
        if frames is not None:
            release_encodings(list(frames.pixels))

    def close(self) -> None:
        """Stop the decoding threads (decodes not started are cancelled)."""
        for pool in (self._pool, self._encoders, self._aside):
            pool.shutdown(wait=False, cancel_futures=True)


def _observe(task: asyncio.Future[Any]) -> None:
    """Retrieve a decode's error, so a failure started ahead for items never sent is not logged as lost."""
    if not task.cancelled():
        task.exception()
