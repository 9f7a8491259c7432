"""A background process that writes walkthroughs (h264 video, ``frames.npz``) while the caller renders on.

The renderer reads each frame back straight into a slot of a ring shared with the process (an anonymous
memory file both map: colour, instance id + depth read-back, depth in millimetres); the process converts
and encodes the colour (PyAV, x264) on one thread and deflates masks and depth (zlib) on another, with the
same writers as before (:mod:`spatialbench.synth.streams`), and hands the slot back when both are done.
Nothing it does takes the caller's GIL, so rendering, visibility counting and the next scene's set-up run
on one core while the writing of this and the previous scene runs on the other; the caller waits only
when every slot is in use. Scenes are written in the order begun; each :meth:`SceneStream.finish` gives
a future that completes when the scene's two files are in place.

The process is a plain ``python -c`` child (no multiprocessing start method: nothing of the caller's
``__main__`` is imported, nothing is forked); it ignores Ctrl-C (the caller decides), and exits, removing
any unfinished ``.part`` file, when told to or when the caller's end of the socket closes.
"""

from __future__ import annotations

import mmap
import os
import queue
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.errors import SpatialBenchError

#: frames rendered ahead of the writers at most (about 4 MB each at 640×480)
SLOTS = 32
_CHILD = "from spatialbench.synth.writer_process import serve; serve()"


class WriterProcessError(SpatialBenchError, RuntimeError):
    """The background writer process could not start or exited before its work was done."""


@dataclass(frozen=True)
class Slot:
    """One frame's place in the ring.

    ``color`` (H, W, 3) uint8, ``id_depth`` (H, W, 2) int32 (the renderer's read-back: instance id, depth as
    float bits), ``ids`` (H, W) uint16 (the instance ids as ``frames.npz`` stores them) and ``depth_mm``
    (H, W) uint16: the caller fills ``ids`` and ``depth_mm`` from the read-back, the process writes
    ``color``, ``ids`` and ``depth_mm``.
    """

    index: int
    color: NDArray[np.uint8]
    id_depth: NDArray[np.int32]
    ids: NDArray[np.uint16]
    depth_mm: NDArray[np.uint16]


class FrameRing:
    """``slots`` frame slots of ``width`` × ``height`` in a memory file (created, or ``fd`` inherited)."""

    def __init__(self, width: int, height: int, slots: int, fd: int | None = None) -> None:
        pixels = width * height
        self.sizes = (pixels * 3, pixels * 8, pixels * 2, pixels * 2)
        self.slot_bytes = -(-sum(self.sizes) // 64) * 64
        if fd is None:
            fd = _memory_file(self.slot_bytes * slots)
        self.fd, self.shape = fd, (height, width)
        self.map = mmap.mmap(fd, self.slot_bytes * slots)
        self.slots = [self._slot(i) for i in range(slots)]

    def _slot(self, index: int) -> Slot:
        base, (h, w) = index * self.slot_bytes, self.shape
        color_n, id_n, ids_n, _ = self.sizes
        color = np.frombuffer(self.map, np.uint8, h * w * 3, base).reshape(h, w, 3)
        id_depth = np.frombuffer(self.map, np.int32, h * w * 2, base + color_n).reshape(h, w, 2)
        ids = np.frombuffer(self.map, np.uint16, h * w, base + color_n + id_n).reshape(h, w)
        depth_mm = np.frombuffer(self.map, np.uint16, h * w, base + color_n + id_n + ids_n).reshape(h, w)
        return Slot(index, color, id_depth, ids, depth_mm)

    def close(self) -> None:
        """Drop the views and unmap (the file goes when both processes closed it)."""
        self.slots = []
        try:
            self.map.close()
        except BufferError:  # a caller still holds a view of a slot; the mapping goes with it
            pass
        os.close(self.fd)


def _memory_file(size: int) -> int:
    """Return an inheritable anonymous file of ``size`` bytes (memfd, else an unlinked temporary)."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("spatialbench-frames", 0)
    else:
        handle, name = tempfile.mkstemp(prefix="spatialbench-frames-")
        os.unlink(name)
        fd = handle
    os.ftruncate(fd, size)
    return fd


class SceneWriter:
    """The caller's side: starts the process on first use; :meth:`begin` a scene, fill slots, finish.

    Use as a context manager (or call :meth:`close`): unfinished scenes are aborted, the process ends.
    """

    def __init__(self, width: int, height: int, slots: int = SLOTS) -> None:
        self.width, self.height, self.slot_count = width, height, slots
        self.ring: FrameRing | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.free: queue.Queue[int] = queue.Queue()
        self.done: dict[int, Future[None]] = {}
        self.errors: dict[int, BaseException] = {}
        self.scenes = 0

    def start(self) -> None:
        """Start the process now, if not yet started (:meth:`begin` does it otherwise).

        Its start-up (importing numpy and PyAV, half a second of CPU) then overlaps what the caller does
        before its first frame.

        Raises:
            WriterProcessError: the process could not be started.
        """
        if self.process is None:
            self._start()

    def _start(self) -> None:
        self.ring = FrameRing(self.width, self.height, self.slot_count)
        ours, theirs = socket.socketpair()
        argv = [sys.executable, "-c", _CHILD, str(theirs.fileno()), str(self.ring.fd)]
        argv += [str(self.width), str(self.height), str(self.slot_count)]
        try:
            self.process = subprocess.Popen(argv, pass_fds=(theirs.fileno(), self.ring.fd), env=_child_env())
        except OSError as error:
            raise WriterProcessError(f"cannot start the background writer process: {error}") from None
        finally:
            theirs.close()
        self.conn = Connection(ours.detach())
        for index in range(self.slot_count):
            self.free.put(index)
        threading.Thread(target=self._receive, name="scene-writer-replies", daemon=True).start()

    def _receive(self) -> None:
        """Read the process's replies: slots freed, a scene's first error, a scene done; EOF if it died."""
        while True:
            try:
                kind, *args = self.conn.recv()
            except (EOFError, OSError):
                break
            if kind == "free":
                self.free.put(args[0])
            elif kind == "error":
                self.errors.setdefault(args[0], args[1])
            elif kind == "done":
                future = self.done[args[0]]
                future.set_exception(args[1]) if args[1] is not None else future.set_result(None)
        lost = self._lost()
        for future in self.done.values():
            if not future.done():
                future.set_exception(lost)
        self.errors.setdefault(-1, lost)
        self.free.put(-1)  # wakes a caller waiting for a slot

    def _lost(self) -> WriterProcessError:
        try:
            code = self.process.wait(timeout=5) if self.process else None
        except subprocess.TimeoutExpired:
            code = None
        return WriterProcessError(f"the background writer process exited (exit status {code})")

    def send(self, *message: Any) -> None:
        """Send ``message`` to the process.

        Raises:
            WriterProcessError: the process has gone.
        """
        try:
            self.conn.send(message)
        except OSError:
            raise self._lost() from None

    def begin(self, video: Path, npz: Path, frames: int, fps: int, crf: int) -> SceneStream:
        """Start writing a walkthrough of ``frames`` frames to ``video`` and ``npz`` (through ``.part``)."""
        self.start()
        token, self.scenes = self.scenes, self.scenes + 1
        self.done[token] = Future()
        self.send("begin", token, str(video), str(npz), (frames, self.height, self.width), fps, crf)
        return SceneStream(self, token)

    def close(self) -> None:
        """Abort what is unfinished (its ``.part`` files removed), stop the process, release the ring."""
        if self.process is not None:
            try:
                self.conn.send(("stop",))
            except OSError:
                pass
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.conn.close()
            self.process = None
        if self.ring is not None:
            self.ring.close()
            self.ring = None

    def __enter__(self) -> SceneWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _child_env() -> dict[str, str]:
    """Return the caller's environment with this package's source folder first on ``PYTHONPATH``."""
    env, source = dict(os.environ), str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH", "")) if p)
    # glibc: keep freed frame-sized buffers (PyAV's, numpy's) in the heap rather than unmapping them and
    # faulting them in again for the next frame (measured: 2 s of kernel time a 3-scene demo)
    env.setdefault("MALLOC_MMAP_THRESHOLD_", str(16 << 20))
    env.setdefault("MALLOC_TRIM_THRESHOLD_", str(256 << 20))
    return env


class SceneStream:
    """One scene being written: :meth:`slot` to render into, :meth:`push` it, then :meth:`finish`."""

    def __init__(self, writer: SceneWriter, token: int) -> None:
        self.writer, self.token = writer, token

    def slot(self) -> Slot:
        """Return a free slot (waits while every slot is in use).

        Raises:
            the error the process reported for this scene (a ValueError of a writer, say), or
            WriterProcessError: the process exited.
        """
        writer = self.writer
        while True:
            self._raise_error()
            try:
                index = writer.free.get(timeout=1.0)
            except queue.Empty:
                continue
            if index >= 0:
                assert writer.ring is not None
                return writer.ring.slots[index]
            writer.free.put(-1)  # the process is gone: keep waking the waiters

    def _raise_error(self) -> None:
        error = self.writer.errors.get(self.token) or self.writer.errors.get(-1)
        if error is not None:
            raise error

    def push(self, slot: Slot) -> None:
        """Hand a filled slot to the process (frames of a scene in order)."""
        self.writer.send("frame", self.token, slot.index)

    def finish(
        self, K: NDArray[Any], poses: NDArray[Any], timestamps: NDArray[Any], fps: float
    ) -> Future[None]:
        """Close the walkthrough with its per-video arrays; the future completes once both files exist."""
        self.writer.send("finish", self.token, K, poses, timestamps, fps)
        return self.writer.done[self.token]

    def abort(self) -> None:
        """Drop the scene: its queued frames are skipped, its ``.part`` files removed (waits for that)."""
        future = self.writer.done[self.token]
        if not future.done():
            try:
                self.writer.send("abort", self.token)
            except WriterProcessError:
                return  # the process has gone; its ``.part`` file stays (a re-run replaces it)
            future.exception()  # waits; the scene's own error, if any, is the caller's to raise


def serve(argv: list[str] | None = None) -> None:
    """Run the process's main loop (``argv``: socket fd, ring fd, width, height, slots)."""
    import signal

    from spatialbench.synth.writer_jobs import Jobs

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C goes to the caller, which aborts or finishes
    sock_fd, ring_fd, width, height, slots = (int(a) for a in (argv or sys.argv[1:]))
    conn, ring = Connection(sock_fd), FrameRing(width, height, slots, fd=ring_fd)
    lock = threading.Lock()

    def reply(*message: Any) -> None:
        with lock:
            try:
                conn.send(message)
            except (OSError, ValueError):  # the caller has gone
                pass

    with Jobs(ring, _safe_reply(reply)) as jobs:
        while True:
            try:
                kind, *args = conn.recv()
            except (EOFError, OSError):
                break
            if kind == "stop":
                break
            getattr(jobs, kind)(*args)


def _safe_reply(reply: Callable[..., None]) -> Callable[..., None]:
    """``reply`` that sends an unpicklable exception as a WriterProcessError naming it."""
    import pickle

    def send(*message: Any) -> None:
        try:
            if any(isinstance(m, BaseException) for m in message):
                pickle.dumps(message)
        except Exception:
            message = tuple(
                WriterProcessError(f"{type(m).__name__}: {m}") if isinstance(m, BaseException) else m
                for m in message
            )
        reply(*message)

    return send
