"""Report build time for a 5,000-item run (issue 14 goal: under 60 s).

A VSI-Bench folder of 50 real h264 videos (640x480, 64 frames) with 100 questions each (counting and
relative distance), one model run of all 5,000 items written to its store the way the runner writes it
(prompt record with the 8 uniform frames sent, seeded right/wrong answers) and a chance-frequency run;
then ``build_report`` on both, with the default 10 listed and 3 contact sheets per task. Prints the wall
time of each stage and the total.

Usage: .venv/bin/python bench/report_speed.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

from spatialbench.api import run  # noqa: E402
from spatialbench.benchmarks import get_benchmark  # noqa: E402
from spatialbench.records.messages import Response  # noqa: E402
from spatialbench.report import build_report  # noqa: E402
from spatialbench.runs import STORE_NAME, RunConfig, RunStore  # noqa: E402
from spatialbench.runs.record import record_run  # noqa: E402
from support.videos import encode_indexed_video  # noqa: E402
from support.vsi_data import make_vsibench  # noqa: E402

N_VIDEOS, PER_VIDEO, N_FRAMES, FPS = 50, 100, 64, 30


def model_run(data: Path, out: Path) -> None:
    """Store one answer per item as the runner does (prompt with the frames sent), 60 % right."""
    config = RunConfig.model_validate({"data": {"benchmark": "vsibench", "path": str(data)},
                                       "model": {"name": "openai-compatible:http://127.0.0.1:9/v1#bench"},
                                       "media": {"frames": "uniform:8"}, "out": str(out)})
    items = list(get_benchmark("vsibench").load_items(data))
    rng = np.random.default_rng(0)
    frames = np.linspace(0, N_FRAMES - 1, 8).astype(int).tolist()
    store = RunStore(out / STORE_NAME, [])
    record_run(store, config, {"bench": True}, {"bench": True}, [])
    for item in items:
        right = rng.random() < 0.6
        answer = item.ground_truth if right else ("B" if item.options else str(float(item.ground_truth) * 3))
        prompt = {"system": None, "parts": [*({"image": k} for k in range(8)), item.question],
                  "media": [{"source": str(data / item.media[0].path), "frames": frames,
                             "timestamps": [f / FPS for f in frames]}]}
        store.put(f"bench-{item.id}", item.id, prompt, Response(text=answer))
    store.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        started = time.perf_counter()
        make_vsibench(root / "data", n_videos=N_VIDEOS, per_video=PER_VIDEO, n_frames=N_FRAMES)
        for v in range(N_VIDEOS):  # full-size videos instead of the helper's 64x64 ones
            encode_indexed_video(root / "data" / "arkitscenes" / f"scene{v}.mp4", N_FRAMES, 640, 480, FPS)
        model_run(root / "data", root / "model")
        run(RunConfig.model_validate({"data": {"benchmark": "vsibench", "path": str(root / "data")},
                                      "model": {"name": "chance-frequency"}, "out": str(root / "chance")}),
            progress=False)
        print(f"set-up (videos, 5,000-item store, baseline): {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        result = build_report([root / "model", root / "chance"], root / "report")
        total = time.perf_counter() - started
        pages = len(list((root / "report" / "items").glob("*.html")))
        stages = ", ".join(f"{k} {v:.1f} s" for k, v in result.timings_s.items())
        print(f"report of {pages - 1} items, 2 runs: {total:.1f} s (goal < 60 s) — {stages}")


if __name__ == "__main__":
    main()
