"""Synthetic scenes with ``--executor local`` vs ``--executor ray`` on a local 2-worker Ray (issue 15).

Usage: .venv/bin/python bench/ray_speedup.py [--scenes 8] [--seconds 6] [--workers 2] [--width W --height H]
Needs Ray (``pip install 'spatialbench[ray]'``). Renders the same scenes twice into two temporary folders,
prints both wall times side by side (Ray with and without its start-up), the speed-up (ideal: the number of
workers, on that many idle cores), how many cores the local executor alone kept busy (its pipeline encodes
and compresses on worker threads, so on 2 cores little is left for a second worker) and whether every file
of the two folders is byte-identical.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import tempfile
import time
from pathlib import Path

import ray

from spatialbench.generate.executors import ExecutorSettings, generate_synthetic_on
from spatialbench.synth import RenderConfig


def digests(folder: Path) -> dict[str, str]:
    """Relative path → sha256 of every file under ``folder``."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=480)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    config = RenderConfig(width=args.width, height=args.height, max_seconds=args.seconds)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        start, cpu = time.perf_counter(), _cpu_s()
        generate_synthetic_on(ExecutorSettings("local"), root / "local", args.scenes, args.seed, config)
        local = time.perf_counter() - start
        local_cores = (_cpu_s() - cpu) / local
        start = time.perf_counter()
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
        ready = time.perf_counter()
        generate_synthetic_on(ExecutorSettings("ray"), root / "ray", args.scenes, args.seed, config)
        done = time.perf_counter()
        ray.shutdown()
        same = digests(root / "local") == digests(root / "ray")
        files = len(digests(root / "local"))
    with_start, tasks = done - start, done - ready
    print(
        f"{args.scenes} scenes of {args.seconds:g} s at {args.width}x{args.height}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'executor':24s} {'wall s':>8s} {'speed-up':>9s}")
    print(f"{'local':24s} {local:8.1f} {1.0:9.2f}   ({local_cores:.2f} cores busy on average)")
    print(f"{f'ray, {args.workers} workers (tasks)':24s} {tasks:8.1f} {local / tasks:9.2f}")
    print(f"{'ray, with start-up':24s} {with_start:8.1f} {local / with_start:9.2f}")
    verdict = "yes" if same else "NO"
    print(f"ideal speed-up {args.workers:.1f}x; outputs byte-identical: {verdict} ({files} files)")


if __name__ == "__main__":
    main()
