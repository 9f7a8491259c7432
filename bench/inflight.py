"""Requests in flight against a slow API: share of the ideal throughput, server-timed (issue 25).

A loopback OpenAI-compatible server answering every request in ``--latency`` s (200 ms) in its own
process records when each request arrived and when it was answered. The client is ``spatialbench.run``
at ``--concurrency`` (16) on a benchmark of many short videos (``--videos`` × ``--per-video`` questions;
the case where in-flight drops showed most), or on ``--data`` (e.g. a demo's ``benchmark`` folder).

The ideal is the time from the first arrival to the last answer of a client that never lets a slot idle.
n requests at concurrency c go out in at least ``ceil(n / c)`` rounds of one latency each (the last round
holds ``n mod c`` requests when c does not divide n, and still takes a whole latency), so the round-based
ideal is ``ceil(n / c) × latency``; the naive ``n × latency / c`` assumes fractional rounds and no client
can reach it unless c divides n (132 demo items at 16: 9 rounds, 1.80 s, not 8.25 rounds, 1.65 s).
Printed: the span's share of both ideals (the round-based one is the goal's), the mean number in flight,
the time with fewer than ``concurrency`` in flight, in-flight over time (one figure per 10 % of the span)
and the client's CPU seconds; then where the slots idled (slot-seconds, :func:`idle_slots`): ramp-up (the
first ``concurrency`` requests arriving after the first one), hand-offs (an answer to the arrival of the
request taking its slot; also per hand-off) and ramp-down (a slot's last answer to the span's end).
Several ``--src`` folders (e.g. the ``src`` of a checkout of another commit) run side by side, alternated
``--repeats`` times, in one session.

``--warm`` times the second of two runs in one client process sharing one frame cache (``spatialbench
sweep``'s case, :func:`~spatialbench.runs.runner.shared_frame_caches`): its frames are decoded already, so
it shows the request path alone (the client CPU printed is both runs') where decoding is the bound: the
demo's 3 videos need 3.6-3.7 s of decoding CPU, and a video's 44 questions last 0.55 s at 16 in flight,
so on 2 cores the next video cannot be ready in time (issue 25). The server answers each request
``--latency`` after its headers arrived (its reading and parsing of the body count within it).

Usage: .venv/bin/python bench/inflight.py [--src src --src ../old/src]
       [--data DEMO/benchmark --frames uniform:8] [--warm]
Goal (issue 25): >= 95 % of the round-based ideal at 200 ms and concurrency 16.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"

CLIENT = """
import json, resource, sys
from spatialbench.api import run
from spatialbench.runs import RunConfig
from spatialbench.runs.runner import shared_frame_caches
data, out, url, frames, concurrency, passes = sys.argv[1:7]
with shared_frame_caches():  # --warm: the second run finds the frames the first one decoded (a sweep)
    for k in range(int(passes)):
        config = RunConfig.model_validate({
            "data": {"benchmark": "vsibench", "path": data},
            "model": {"name": f"openai-compatible:{url}#m", "concurrency": int(concurrency)},
            "media": {"frames": frames}, "out": f"{out}-{k}"})
        summary = run(config, progress=False)
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"ok": summary.counts.get("ok", 0), "cpu_s": usage.ru_utime + usage.ru_stime}))
"""


def one_run(src: Path, data: Path, tmp: Path, args: argparse.Namespace) -> dict[str, float]:
    """Run the benchmark once with the client code of ``src``; return the server-timed figures."""
    timeline = tmp / "timeline.json"
    server = subprocess.Popen(
        [sys.executable, str(TESTS / "support" / "openai_server.py"), "--latency", str(args.latency),
         "--timeline", str(timeline)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(TESTS)},
    )
    assert server.stdout is not None
    url = server.stdout.readline().strip()
    out = tmp / f"run-{len(list(tmp.glob('run-*')))}"
    client = subprocess.run(
        [sys.executable, "-c", CLIENT, str(data), str(out), url, args.frames, str(args.concurrency),
         str(2 if args.warm else 1)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(src.resolve())}, check=True,
    )
    server.communicate("")
    figures = json.loads(client.stdout.strip().splitlines()[-1])
    spans = np.array(sorted(json.loads(timeline.read_text())))
    spans = spans[-figures["ok"]:] if args.warm else spans  # the second run's requests arrive last
    return {**figures, **in_flight(spans, args), **idle_slots(spans, args.concurrency)}


def ideals(n: int, latency: float, concurrency: int) -> tuple[float, float]:
    """The naive ideal ``n × latency / concurrency`` and the round-based ``ceil(n / concurrency) × latency``.

    Seconds; the round-based one is the least a client can take (module docstring).
    """
    return n * latency / concurrency, math.ceil(n / concurrency) * latency


def in_flight(spans: np.ndarray, args: argparse.Namespace) -> dict[str, float]:
    """Shares of both ideals, mean in flight, time below the bound, and in flight per tenth of the span.

    ``spans``: (n, 2) arrival and answer times in seconds, as the server's timeline records them.
    """
    start, end = spans[:, 0].min(), spans[:, 1].max()
    grid = np.linspace(start, end, 2000)
    flying = ((spans[:, :1] <= grid) & (grid < spans[:, 1:])).sum(axis=0)
    naive, rounds = ideals(len(spans), args.latency, args.concurrency)
    tenths = [float(chunk.mean()) for chunk in np.array_split(flying, 10)]
    return {
        "n": len(spans), "span_s": end - start, "naive_s": naive, "naive_share": naive / (end - start),
        "ideal_s": rounds, "share": rounds / (end - start),
        "mean_in_flight": float(flying.mean()), "below_bound": float((flying < args.concurrency).mean()),
        "tenths": tenths,
    }


def idle_slots(spans: np.ndarray, concurrency: int) -> dict[str, float]:
    """Idle slot-seconds of the span in ramp-up, hand-offs and ramp-down, and the mean hand-off in seconds.

    ``spans``: (n, 2) arrivals and answers (n > ``concurrency``). Each request after the first
    ``concurrency`` takes the slot of the earliest answer not yet handed on (slots are FIFO); the three
    parts add up to ``concurrency × span − Σ(answer − arrival)``.
    """
    arrivals, answers = np.sort(spans[:, 0]), np.sort(spans[:, 1])
    start, end, c = arrivals[0], answers[-1], concurrency
    hand_offs = arrivals[c:] - answers[: len(answers) - c]
    last = answers[len(answers) - c :]  # each slot's last answer
    return {
        "ramp_up": float((arrivals[:c] - start).sum()), "hand_offs": float(hand_offs.sum()),
        "per_hand_off": float(hand_offs.mean()), "ramp_down": float((end - last).sum()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src", action="append", type=Path, help="client source folder (default: src)")
    parser.add_argument("--data", type=Path, help="a VSI-Bench-format folder (default: many short videos)")
    parser.add_argument("--warm", action="store_true",
                        help="time a second run in one process, its frames decoded by the first (a sweep)")
    parser.add_argument("--videos", type=int, default=40, help="short videos made (without --data)")
    parser.add_argument("--per-video", type=int, default=8, help="questions per video (without --data)")
    parser.add_argument("--frames", default="uniform:8", help="frame selection of the run")
    parser.add_argument("--latency", type=float, default=0.2, help="the server's answer time, seconds")
    parser.add_argument("--concurrency", type=int, default=16, help="requests in flight at most")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each client, alternating")
    args = parser.parse_args()
    sources = args.src or [ROOT / "src"]
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.latency * 1000:.0f} ms, "
          f"concurrency {args.concurrency}, {args.frames}")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        data = args.data
        if data is None:
            sys.path.insert(0, str(TESTS))
            from support.vsi_data import make_vsibench

            data = tmp / "data"
            make_vsibench(data, n_videos=args.videos, per_video=args.per_video, n_frames=32)
            print(f"{args.videos} videos x {args.per_video} questions (64x64 px, 32 frames each)")
        for repeat in range(args.repeats):
            for src in sources:
                f = one_run(src, data, tmp, args)
                print(f"[{repeat + 1}] {src}: {f['ok']}/{f['n']} answered; span {f['span_s']:.2f} s; "
                      f"round-based ideal {f['ideal_s']:.2f} s = {100 * f['share']:.1f} % of it, naive "
                      f"{f['naive_s']:.2f} s = {100 * f['naive_share']:.1f} %; mean in flight "
                      f"{f['mean_in_flight']:.1f}, below {args.concurrency} for "
                      f"{100 * f['below_bound']:.0f} % of the span; client CPU {f['cpu_s']:.1f} s; "
                      "in flight per tenth: "
                      + " ".join(f"{t:.1f}" for t in f["tenths"]))
                print(f"    idle slot-seconds: ramp-up {f['ramp_up']:.2f}, hand-offs {f['hand_offs']:.2f} "
                      f"({1000 * f['per_hand_off']:.1f} ms each), ramp-down {f['ramp_down']:.2f}")
        print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
