"""Throughput and peak memory of a 5,000-item run (issue 16): items/s and the client's peak RSS.

A VSI-Bench-format benchmark of ``--items`` questions, ``--per-video`` (default 17) per video: 295 real
h264 videos of 640×480 frames (48 frames at 16 fps; random colour tiles panning, so a PNG frame is
~155 KB, the demo's ~115 KB), written once into ``--data`` and reused. The run: ``uniform:32``,
concurrency 16, PNG, against the zero-latency loopback server in its own process
(``tests/support/openai_server.py``); the run itself goes in a fresh child process so its peak RSS
(``ru_maxrss``) is the run's alone. Goal: peak RSS ≤ 1 GB; one encoding per distinct frame.

Usage: .venv/bin/python bench/run_memory.py [--data DIR] [--items 5000] [--repeats 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

GOAL_RSS_MB = 1024
FRAMES, FPS, WIDTH, HEIGHT = 48, 16, 640, 480


def textured_frames(seed: int) -> list[NDArray[np.uint8]]:
    """``FRAMES`` frames (H, W, 3) uint8 of one video: random 16-px colour tiles panning 6 px a frame."""
    rng = np.random.default_rng(seed)
    tiles = rng.integers(0, 256, (HEIGHT // 16, (WIDTH + 6 * FRAMES) // 16, 3), dtype=np.uint8)
    wide = np.repeat(np.repeat(tiles, 16, axis=0), 16, axis=1)
    return [np.ascontiguousarray(wide[:, 6 * k : 6 * k + WIDTH]) for k in range(FRAMES)]


def write_video(path: Path, seed: int) -> None:
    """Write one h264 mp4 of :func:`textured_frames` (x264 ultrafast, crf 23)."""
    import av

    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=FPS)
        stream.width, stream.height, stream.pix_fmt = WIDTH, HEIGHT, "yuv420p"
        stream.options = {"crf": "23", "preset": "ultrafast"}
        for k, pixels in enumerate(textured_frames(seed)):
            frame = av.VideoFrame.from_ndarray(pixels, format="rgb24")
            frame.pts, frame.time_base = k, Fraction(1, FPS)
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def write_benchmark(root: Path, items: int, per_video: int) -> None:
    """Write ``root/synthetic/v{n}.mp4`` and ``root/test.jsonl`` (counting and multiple-choice questions)."""
    n_videos = -(-items // per_video)
    (root / "synthetic").mkdir(parents=True, exist_ok=True)
    for v in range(n_videos):
        path = root / "synthetic" / f"v{v:04d}.mp4"
        if not path.exists():
            write_video(path, v)
    rows = []
    for k in range(items):
        row: dict[str, Any] = {"id": k, "dataset": "synthetic", "scene_name": f"v{k // per_video:04d}"}
        if k % 2:
            row |= {"question_type": "object_rel_distance", "ground_truth": "A",
                    "question": f"[q{k}] Which is closest to the sofa?",
                    "options": ["A. chair", "B. table", "C. lamp", "D. bed"]}
        else:
            row |= {"question_type": "object_counting", "question": f"[q{k}] How many chair(s) are there?",
                    "options": None, "ground_truth": "2"}
        rows.append(json.dumps(row) + "\n")
    order = np.random.default_rng(0).permutation(items)  # benchmark files are not sorted by video
    (root / "test.jsonl").write_text("".join(rows[i] for i in order))


def measure(data: Path, out: Path, concurrency: int) -> dict[str, Any]:
    """Run the whole benchmark in a child process (``encode_concurrency.py --one``); return its figures."""
    script = Path(__file__).with_name("encode_concurrency.py")
    args = ["--one", str(concurrency), "--data", str(data), "--items", "0", "--out", str(out)]
    done = subprocess.run([sys.executable, str(script), *args], check=True, capture_output=True, text=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="benchmark folder (written when missing)")
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--per-video", type=int, default=17)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        data = args.data or Path(name) / "data"
        if not (data / "test.jsonl").exists():
            write_benchmark(data, args.items, args.per_video)
        runs = [measure(data, Path(name) / f"run{k}", args.concurrency) for k in range(args.repeats)]
    for k, r in enumerate(runs):
        print(
            f"run {k + 1}: {r['ok']} items in {r['seconds']:.1f} s = {r['items_per_s']:.2f} items/s; "
            f"client CPU {r['client_cpu_s']:.1f} s, server CPU {r['server_cpu_s']:.1f} s; "
            f"{r['encodes']} encodings of {r['frames']} distinct frames "
            f"(at most {r['max_per_frame']} per frame); "
            f"client peak RSS {r['peak_rss_mb']:.0f} MB"
        )
    best = max(runs, key=lambda r: r["items_per_s"])
    rates = [r["items_per_s"] for r in runs]
    peak = max(r["peak_rss_mb"] for r in runs)
    verdict = "meets" if peak <= GOAL_RSS_MB else "ABOVE"
    print(f"best {best['items_per_s']:.2f} items/s (spread {min(rates):.2f}-{max(rates):.2f}); "
          f"peak RSS {peak:.0f} MB ({verdict} the {GOAL_RSS_MB} MB goal)")


if __name__ == "__main__":
    main()
