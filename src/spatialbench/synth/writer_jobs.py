"""The background writer process's work (:mod:`spatialbench.synth.writer_process`): scenes in order.

Two single-thread executors keep each writer's frames in order across scenes: the encoder thread
converts and encodes colour frames (:class:`~spatialbench.synth.streams.VideoWriter`), the deflater
thread compresses masks and depth (:class:`~spatialbench.synth.streams.FrameSetWriter`); a slot is
handed back when both have read it. A scene is closed on the deflater thread once the encoder has taken
its last frame: ``frames.npz`` written, then the video renamed into place; after an error or an abort
neither is, and the video's ``.part`` file is removed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from spatialbench.errors import SpatialBenchError
from spatialbench.synth.streams import FrameSetWriter, VideoWriter


class SceneAborted(SpatialBenchError):
    """The caller dropped the scene (its files are not written)."""


class Job:
    """One walkthrough: its two writers and its first error (set from either thread)."""

    def __init__(self, video: str, npz: str, shape: tuple[int, int, int], fps: int, crf: int) -> None:
        self.frames = FrameSetWriter(Path(npz), shape)
        self.video = VideoWriter(Path(video), shape[2], shape[1], fps, crf)
        self.error: BaseException | None = None
        self.reported = False

    def guarded(self, write: Callable[..., None], *args: Any) -> None:
        """Run ``write(*args)`` unless the scene already failed; keep the first error."""
        if self.error is None:
            try:
                write(*args)
            except BaseException as error:
                self.error = self.error or error

    def close(self, encoded: Future[None], arrays: tuple[Any, ...] | None) -> BaseException | None:
        """After the encoder's last frame: write both files (``arrays`` given, no error), else drop them."""
        encoded.result()
        if self.error is None and arrays is not None:
            self.guarded(self.frames.close, *arrays)
            self.guarded(self.video.close)
        if self.error is not None or arrays is None:
            self.video.abort()
        return self.error if arrays is not None else self.error or SceneAborted()


class Jobs:
    """The scenes begun and not yet closed, keyed by the caller's token; ``reply`` sends to the caller."""

    def __init__(self, ring: Any, reply: Callable[..., None]) -> None:
        self.ring, self.reply = ring, reply
        self.jobs: dict[int, Job] = {}
        self.encoder = ThreadPoolExecutor(1, thread_name_prefix="encoder")
        self.deflater = ThreadPoolExecutor(1, thread_name_prefix="deflater")

    def begin(
        self, token: int, video: str, npz: str, shape: tuple[int, int, int], fps: int, crf: int
    ) -> None:
        """Open a scene's writers (the video's ``.part`` file is created now)."""
        try:
            self.jobs[token] = Job(video, npz, shape, fps, crf)
        except BaseException as error:
            self.reply("error", token, error)
            self.reply("done", token, error)

    def frame(self, token: int, index: int) -> None:
        """Queue slot ``index`` of scene ``token`` on both writers; the slot is freed after both."""
        job, slot = self.jobs.get(token), self.ring.slots[index]
        if job is None:  # the scene could not be opened
            self.reply("free", index)
            return
        pending = [2]
        lock = threading.Lock()

        def done(_: Future[None]) -> None:
            with lock:
                pending[0] -= 1
                last = pending[0] == 0
            if last:
                self.reply("free", index)
                if job.error is not None and not job.reported:
                    job.reported = True
                    self.reply("error", token, job.error)

        self.encoder.submit(job.guarded, job.video.write, slot.color).add_done_callback(done)
        deflated = self.deflater.submit(job.guarded, job.frames.write, slot.ids, slot.depth_mm)
        deflated.add_done_callback(done)

    def finish(self, token: int, *arrays: Any) -> None:
        """Close scene ``token`` after its frames (``arrays``: K, poses, timestamps, fps)."""
        self._close(token, arrays)

    def abort(self, token: int) -> None:
        """Drop scene ``token``: frames still queued are skipped, no file is kept."""
        job = self.jobs.get(token)
        if job is not None and job.error is None:
            job.error = SceneAborted()
        self._close(token, None)

    def _close(self, token: int, arrays: tuple[Any, ...] | None) -> None:
        job = self.jobs.pop(token, None)
        if job is None:
            return
        encoded = self.encoder.submit(lambda: None)
        closed = self.deflater.submit(job.close, encoded, arrays)
        closed.add_done_callback(lambda f: self.reply("done", token, f.exception() or f.result()))

    def __enter__(self) -> Jobs:
        return self

    def __exit__(self, *exc: object) -> None:
        """Abort every scene still open (the caller stopped or went away) and wait for the threads."""
        for token in list(self.jobs):
            self.abort(token)
        self.encoder.shutdown()
        self.deflater.shutdown()
