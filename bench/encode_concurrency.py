"""Runner speed-up from concurrency when image encoding is the client's work (issue 16).

The demo benchmark (``spatialbench demo``: 3 scenes, 20 s videos), ``uniform:32`` frames, the first
``--items`` questions (all 132 by default), a loopback OpenAI-compatible server answering at once (zero
latency): the request phase at concurrency 1 and at concurrency 16, each in a fresh process (cold
caches), alternated ``--repeats`` times (best of each; every try's seconds and client + server CPU
seconds are printed too: wall times of ~1.5 s runs on a shared 2-core machine are noisy). Every PNG/JPEG
encoding is counted per distinct frame (digest of its pixels); goals: concurrency 16 at least 1.5× faster
than 1, one encoding per distinct frame.

Usage: .venv/bin/python bench/encode_concurrency.py [--data DEMO_OUT/benchmark] [--items 132] [--repeats 3]
(without ``--data`` the demo is generated into a temporary folder first, ~1-2 min).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent / "tests"
GOAL_SPEEDUP = 1.5


def one_run(data: Path, out: Path, concurrency: int, items: int | None, image_format: str) -> dict[str, Any]:
    """Run ``items`` questions (None: all) at ``concurrency`` against a fresh zero-latency server.

    Returns the figures: request-phase seconds, CPU seconds of client and server, encodings per distinct
    frame, the client's peak RSS (MB).
    """
    import spatialbench.models.images as images
    from spatialbench.api import run
    from spatialbench.runs import RunConfig

    counts: Counter[str] = Counter()
    real = images._encode

    def counted(pixels: Any, *args: Any) -> bytes:
        counts[images._ENCODED.digest(pixels)] += 1  # the cache's content key: cached, so ~free here
        return real(pixels, *args)

    images._encode = counted  # type: ignore[assignment]
    server = subprocess.Popen(
        [sys.executable, str(TESTS / "support" / "openai_server.py"), "--latency", "0"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={"PYTHONPATH": str(TESTS)},
    )
    assert server.stdout is not None
    url = server.stdout.readline().strip()
    model = {"name": f"openai-compatible:{url}#m", "concurrency": concurrency}
    if image_format != "png":
        model["image_format"] = image_format
    config = RunConfig.model_validate(
        {
            "data": {"benchmark": "vsibench", "path": str(data), "limit": items or None},
            "model": model,
            "media": {"frames": "uniform:32"},
            "out": str(out),
        }
    )
    started = resource.getrusage(resource.RUSAGE_SELF)
    try:
        summary = run(config, progress=False)
    finally:
        server.communicate("")
    own, child = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "client_cpu_s": own.ru_utime + own.ru_stime - started.ru_utime - started.ru_stime,
        "server_cpu_s": child.ru_utime + child.ru_stime,
        "seconds": summary.request_seconds,
        "items_per_s": summary.counts.get("ok", 0) / summary.request_seconds,
        "ok": summary.counts.get("ok", 0),
        "selected": summary.selected,
        "frames": len(counts),
        "encodes": sum(counts.values()),
        "max_per_frame": max(counts.values(), default=0),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def measure(data: Path, tmp: Path, concurrency: int, items: int, image_format: str) -> dict[str, Any]:
    """Run :func:`one_run` in a child process (its own caches) and return its figures."""
    out = tmp / f"run-{concurrency}-{len(list(tmp.iterdir()))}"
    args = ["--one", str(concurrency), "--data", str(data), "--items", str(items), "--out", str(out)]
    done = subprocess.run(
        [sys.executable, __file__, *args, "--image-format", image_format],
        check=True, capture_output=True, text=True,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def demo_benchmark(tmp: Path) -> Path:
    """Generate the default demo into ``tmp`` and return its benchmark folder."""
    from spatialbench.demo import run_demo

    run_demo(tmp / "demo", log=lambda _: None)
    return tmp / "demo" / "benchmark"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="a demo benchmark folder")
    parser.add_argument("--items", type=int, default=132)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--image-format", default="png", choices=("png", "jpeg"))
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one_run(args.data, args.out, args.one, args.items, args.image_format)))
        return
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        data = args.data or demo_benchmark(tmp)
        runs: dict[int, list[dict[str, Any]]] = {1: [], 16: []}
        for _ in range(args.repeats):
            for concurrency in runs:
                runs[concurrency].append(measure(data, tmp, concurrency, args.items, args.image_format))
    short = [r for tries in runs.values() for r in tries if r["ok"] < r["selected"]]
    if short:  # a timing of failed requests is not a speed-up
        raise SystemExit(f"not every item was answered ({short[0]['ok']} of {short[0]['selected']} in one "
                         f"try): no figure; see the run folder's failures")
    best = {c: min(r, key=lambda x: x["seconds"]) for c, r in runs.items()}
    for concurrency, figures in best.items():
        tries = ", ".join(
            f"{r['seconds']:.2f} s ({r['client_cpu_s']:.2f}+{r['server_cpu_s']:.2f} CPU s)"
            for r in runs[concurrency]
        )
        print(
            f"concurrency {concurrency:2d}: {figures['ok']} items in {figures['seconds']:.2f} s "
            f"(best of {tries}); "
            f"{figures['encodes']} {args.image_format} encodings of {figures['frames']} distinct frames "
            f"(at most {figures['max_per_frame']} per frame); CPU s client {figures['client_cpu_s']:.2f}, "
            f"server {figures['server_cpu_s']:.2f}; client peak RSS {figures['peak_rss_mb']:.0f} MB"
        )
    speedup = best[1]["seconds"] / best[16]["seconds"]
    verdict = "meets" if speedup >= GOAL_SPEEDUP else "BELOW"
    print(f"speed-up 16 vs 1: {speedup:.2f}x ({verdict} the {GOAL_SPEEDUP}x goal)")


if __name__ == "__main__":
    main()
