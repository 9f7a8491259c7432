"""Decode time for 32 uniform frames of a 300-frame 640x480 h264 video (issue 4).

Encodes the video (B-frames on, frames carrying their own index), then times ``sample_video`` with
``uniform:32`` (demux for timestamps, straight-through decode keeping the wanted frames) and checks the
frames are exactly the wanted ones.

Usage: .venv/bin/python bench/decode_speed.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from spatialbench.media import parse_strategy, sample_video  # noqa: E402
from support.videos import encode_indexed_video, read_index  # noqa: E402

REPEATS = 7


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        video = encode_indexed_video(Path(tmp) / "v.mp4", 300, 640, 480)
        strategy = parse_strategy("uniform:32")
        times = []
        for _ in range(REPEATS):
            started = time.perf_counter()
            frames = sample_video(str(video), strategy)
            times.append(time.perf_counter() - started)
        exact = all(read_index(p) == i for p, i in zip(frames.pixels, frames.indices, strict=True))
    print(
        f"uniform:32 of a 300-frame 640x480 h264 video: median {1000 * statistics.median(times):.0f} ms, "
        f"best {1000 * min(times):.0f} ms over {REPEATS} runs; frames exact: {exact}"
    )


if __name__ == "__main__":
    main()
