"""The two writers a walkthrough streams its frames into: the h264 video and ``frames.npz``.

Both take frames in order and keep only encoded or compressed bytes. They import nothing heavier than
numpy and PyAV, so the background writer process (:mod:`spatialbench.synth.writer_process`) starts quickly;
the file formats are documented in :mod:`spatialbench.synth.export`.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from av.video.reformatter import VideoReformatter
from numpy.typing import NDArray

from spatialbench.synth.npz import NpzWriter

#: x264 threads of every video (:class:`VideoWriter`), whatever the machine's core count
X264_THREADS = 2


class FrameSetWriter:
    """Writes ``frames.npz`` frame by frame (same file as :meth:`FrameSet.save`), compressing as it goes.

    Only the compressed bytes are kept (about 1/10 of the frames), so memory does not grow with the
    video's length as whole (T, H, W) arrays do. Not thread-safe: feed it from one thread (a worker
    thread may do it; zlib releases the GIL).

    Args:
        path: the ``frames.npz`` to write (through ``.frames.npz.part``).
        shape: (T, H, W) of the walkthrough.
    """

    def __init__(self, path: Path, shape: tuple[int, ...]) -> None:
        self._npz = NpzWriter(path)
        self._instance = self._npz.stream("instance", tuple(shape), np.uint16)
        self._depth = self._npz.stream("depth_mm_dx", tuple(shape), np.int16)
        # one frame's ids and row differences, reused: no temporaries per frame (a fresh thread's heap
        # returns freed megabytes to the kernel, and page faults then cost as much as deflating)
        self._ids, self._dx = np.empty(shape[1:], np.uint16), np.empty(shape[1:], np.int16)

    def write(self, instance: NDArray[np.integer], depth_mm: NDArray[np.uint16]) -> None:
        """Append one frame: (H, W) instance ids (< 65536) and uint16 depth in millimetres.

        Raises:
            ValueError: depth beyond 32.767 m (int16 row differences cannot hold it), a wrong shape.
        """
        if depth_mm.size and int(depth_mm.max()) > np.iinfo(np.int16).max:
            raise ValueError("depth beyond 32.767 m cannot be stored as int16 row differences")
        if instance.shape != self._ids.shape or depth_mm.shape != self._dx.shape:
            shapes = f"{instance.shape} and {depth_mm.shape}"
            raise ValueError(f"frame {self._instance.frames}: shapes {shapes}, frames are {self._ids.shape}")
        ids = instance
        if ids.dtype != np.uint16 or not ids.flags.c_contiguous:  # the ring's are fed as they are
            np.copyto(self._ids, instance, casting="unsafe")
            ids = self._ids
        self._instance.write(ids)
        depth = np.asarray(depth_mm, np.uint16).view(np.int16)  # all <= 32767: the same numbers
        self._dx[..., :1] = depth[..., :1]
        np.subtract(depth[..., 1:], depth[..., :-1], out=self._dx[..., 1:])  # |difference| <= 32767
        self._depth.write(self._dx)

    def close(
        self,
        K: NDArray[np.float64],
        cam_to_world: NDArray[np.float64],
        timestamps: NDArray[np.float64],
        fps: float,
    ) -> None:
        """Add the per-walkthrough arrays and write the file (renamed into place when complete)."""
        for name, array in (("K", K), ("cam_to_world", cam_to_world), ("timestamps", timestamps)):
            self._npz.add(name, array)
        self._npz.add("fps", np.asarray(fps))
        self._npz.close()


class VideoWriter:
    """h264 mp4 writer (PyAV, yuv420p); feed (H, W, 3) uint8 frames in order.

    Frames go to ``.<name>.part`` beside ``path``, renamed to ``path`` by :meth:`close`, so an interrupted
    render never leaves a shorter video that decodes as valid; :meth:`abort` removes the temporary.
    """

    def __init__(self, path: Path, width: int, height: int, fps: int, crf: int = 23) -> None:
        self.path, self.partial = path, path.with_name(f".{path.name}.part")
        self.container = av.open(str(self.partial), mode="w", format="mp4")
        self.stream = self.container.add_stream("libx264", rate=fps)
        self.stream.width, self.stream.height, self.stream.pix_fmt = width, height, "yuv420p"
        # mbtree off: with it, x264 gave different bytes for identical input now and then (seen in 1 of ~10
        # encodes of the same frames); without it the output is reproducible.
        # threads pinned: x264's count follows the CPUs the process may use and its output follows the
        # count (1, 2 and 3+ threads: three different files), so the same seed gave other videos on other
        # machines; 2 is what the 2-core development machine chose, so its files stay as they were.
        self.stream.options = {"crf": str(crf), "preset": "veryfast", "x264-params": "mbtree=0",
                               "threads": str(X264_THREADS)}
        self.stream.codec_context.time_base = Fraction(1, fps)
        self.frames, self.fps = 0, fps
        # One rgb24 frame and one converter for the whole video: a fresh frame per image (what
        # ``VideoFrame.from_ndarray`` makes) and a fresh swscale context per ``reformat`` cost 2.1 of the
        # 2.7 ms a 640x480 frame took to convert (issue 25); the pixels and the converter are the same.
        self._rgb_frame = av.VideoFrame(width, height, "rgb24")
        plane = self._rgb_frame.planes[0]
        rows = np.frombuffer(memoryview(plane), np.uint8, height * plane.line_size)
        # a view of the frame's buffer, its rows' padding left out
        self._rgb = rows.reshape(height, plane.line_size)[:, : width * 3].reshape(height, width, 3)
        self._to_yuv = VideoReformatter()

    def write(self, rgb: NDArray[np.uint8]) -> None:
        """Encode one (H, W, 3) uint8 frame.

        Raises:
            ValueError: not uint8, or another shape than the video's.
        """
        if rgb.shape != self._rgb.shape or rgb.dtype != np.uint8:
            got = f"{rgb.dtype} {rgb.shape}"
            raise ValueError(f"frame {self.frames}: {got}, the video's frames are uint8 {self._rgb.shape}")
        np.copyto(self._rgb, rgb)
        frame = self._to_yuv.reformat(self._rgb_frame, format="yuv420p")
        frame.pts, frame.time_base = (
            self.frames,
            Fraction(1, self.fps),
        )  # explicit timestamps, frame i at i/fps
        self.frames += 1
        for packet in self.stream.encode(frame):
            self.container.mux(packet)

    def close(self) -> None:
        """Flush the encoder, close the file and move it to its final name."""
        for packet in self.stream.encode():
            self.container.mux(packet)
        self.container.close()
        self.partial.replace(self.path)

    def abort(self) -> None:
        """Close and delete the unfinished file."""
        try:
            self.container.close()
        finally:
            self.partial.unlink(missing_ok=True)
