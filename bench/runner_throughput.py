"""Runner throughput against a loopback OpenAI-compatible server (issue 4).

500 questions, 200 ms server latency, concurrency 16 — the naive ideal is 16 / 0.2 s = 80 requests/s
(6.25 s); 500 requests at 16 take at least ceil(500 / 16) = 32 rounds of 200 ms, 6.40 s (the round-based
ideal, as in ``bench/inflight.py``), and both shares are printed. Run once without failures (goal: >= 90 %
of the naive ideal) and once with 20 % of attempts failing (429 with Retry-After or
500; goal: 100 % of items completed). Goes through the whole runner: frame sampling from real mp4 files,
prompt building, the official ``openai`` client, retries and the SQLite store.

Usage: .venv/bin/python bench/runner_throughput.py
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

from spatialbench.api import run  # noqa: E402
from spatialbench.runs import RunConfig  # noqa: E402
from support.vsi_data import make_vsibench  # noqa: E402

N_ITEMS, LATENCY_S, CONCURRENCY, FAILURE_RATE = 500, 0.2, 16, 0.2
IDEAL = CONCURRENCY / LATENCY_S
ROUNDS_S = math.ceil(N_ITEMS / CONCURRENCY) * LATENCY_S


def measure(root: Path, out: Path, failure_rate: float) -> None:
    """Run all items against a server process with ``failure_rate`` of attempts failing; print the figures."""
    server = subprocess.Popen(
        [
            sys.executable,
            str(TESTS / "support" / "openai_server.py"),
            "--latency",
            str(LATENCY_S),
            "--failure-rate",
            str(failure_rate),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={"PYTHONPATH": str(TESTS)},
    )
    assert server.stdout is not None and server.stdin is not None
    url = server.stdout.readline().strip()
    config = RunConfig.model_validate(
        {
            "data": {"benchmark": "vsibench", "path": str(root)},
            "model": {"name": f"openai-compatible:{url}#m", "concurrency": CONCURRENCY, "max_attempts": 8},
            "media": {"frames": "uniform:4"},
            "out": str(out),
        }
    )
    started = time.perf_counter()
    summary = run(config, progress=False)
    elapsed = time.perf_counter() - started
    outcomes, _ = server.communicate("")
    counts = json.loads(outcomes)
    done = summary.counts["ok"]
    rate = done / summary.request_seconds
    print(
        f"failures {failure_rate:4.0%}: {done}/{N_ITEMS} items completed ({100 * done / N_ITEMS:.1f} %), "
        f"{sum(counts.values()) - counts.get('answered', 0)} failed attempts retried; request phase "
        f"{summary.request_seconds:.2f} s, {rate:.1f} items/s = {100 * rate / IDEAL:.1f} % of the naive "
        f"ideal {IDEAL:.0f}/s, {100 * ROUNDS_S / summary.request_seconds:.1f} % of the round-based "
        f"{ROUNDS_S:.2f} s "
        f"(whole run incl. imports, loading, scoring: {elapsed:.2f} s)"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "data"
        make_vsibench(root, n_videos=10, per_video=N_ITEMS // 10, n_frames=8)
        print(f"{N_ITEMS} requests, {LATENCY_S * 1000:.0f} ms latency, concurrency {CONCURRENCY}")
        measure(root, Path(tmp) / "clean", 0.0)
        measure(root, Path(tmp) / "faulty", FAILURE_RATE)
        print("goals: >= 90 % of the naive ideal without failures; 100 % completion with 20 % failures")


if __name__ == "__main__":
    main()
