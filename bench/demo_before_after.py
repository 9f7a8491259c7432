"""The built-in demo with two source trees side by side in one session: wall, CPU seconds, cores used, load.

Runs ``bench/demo_time.py``'s demo (default 3 scenes of 20 s) alternately with ``--before`` (a source
folder, e.g. one exported from main: ``git archive main src | tar -x -C /tmp/main``) and this checkout's
``src``, ``--repeats`` times each, each run a fresh process. CPU seconds include the run's child processes
(the background writer process); load is ``os.getloadavg()`` (``uptime``'s 1-minute figure) before and
after each run. The files written are compared between the two trees (sha256 of every file; summary.json
without its timings, scene.json without ``code``, the digest of the synth sources).

Usage: .venv/bin/python bench/demo_before_after.py --before /tmp/main/src [--repeats 3] [--scenes 3]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUN = """
import sys
from pathlib import Path
from spatialbench.demo import run_demo
run_demo(Path(sys.argv[1]), scenes=int(sys.argv[2]), seed=0, seconds=float(sys.argv[3]), log=lambda _: None)
"""


def digest(path: Path) -> str:
    """sha256 of a file; summary.json without its timings, scene.json without its code digest."""
    data = path.read_bytes()
    if path.name in ("summary.json", "scene.json"):
        payload = json.loads(data)
        payload.pop("timings_s" if path.name == "summary.json" else "code")
        data = json.dumps(payload, sort_keys=True).encode()
    return hashlib.sha256(data).hexdigest()


def one_run(source: Path, out: Path, scenes: int, seconds: float) -> dict[str, float]:
    """Run the demo in a fresh process on ``source``; wall, CPU (with children) and load before/after."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    before, load0 = resource.getrusage(resource.RUSAGE_CHILDREN), os.getloadavg()[0]
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", RUN, str(out), str(scenes), str(seconds)], env=env, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"wall": wall, "cpu": cpu, "cores": cpu / wall, "load0": load0, "load1": os.getloadavg()[0]}


def files_of(out: Path) -> dict[str, str]:
    """Digest of every file under ``out``, by relative path."""
    return {p.relative_to(out).as_posix(): digest(p) for p in out.rglob("*") if p.is_file()}


def summary(name: str, runs: list[dict[str, float]]) -> str:
    """One line: the ranges of wall, CPU and cores over ``runs``, and of the load."""
    ranges = {k: (min(r[k] for r in runs), max(r[k] for r in runs)) for k in ("wall", "cpu", "cores")}
    loads = [r[k] for r in runs for k in ("load0", "load1")]
    return (
        f"{name:6s} wall {ranges['wall'][0]:.1f}-{ranges['wall'][1]:.1f} s, "
        f"CPU {ranges['cpu'][0]:.1f}-{ranges['cpu'][1]:.1f} s, "
        f"{ranges['cores'][0]:.2f}-{ranges['cores'][1]:.2f} cores, load {min(loads):.2f}-{max(loads):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="source folder of the 'before' code")
    parser.add_argument("--after", type=Path, default=Path(__file__).resolve().parents[1] / "src",
                        help="source folder of the 'after' code (default: this checkout's src)")
    parser.add_argument("--repeats", type=int, default=3, help="demo runs of each tree, alternating")
    parser.add_argument("--scenes", type=int, default=3, help="scenes of the demo (its default: 3)")
    parser.add_argument("--seconds", type=float, default=20.0, help="video length of each scene, seconds")
    args = parser.parse_args()
    rows: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    files: dict[str, dict[str, str]] = {}
    print(f"{os.cpu_count()} cores; demo of {args.scenes} scenes of {args.seconds:g} s")
    print(f"{'run':10s} {'wall s':>7s} {'CPU s':>7s} {'cores':>6s}  load before/after")
    with tempfile.TemporaryDirectory() as tmp:
        for repeat in range(args.repeats):
            for name, source in (("before", args.before), ("after", args.after)):
                out = Path(tmp) / f"{name}-{repeat}"
                row = one_run(source, out, args.scenes, args.seconds)
                rows[name].append(row)
                cells = f"{row['wall']:7.1f} {row['cpu']:7.1f} {row['cores']:6.2f}"
                print(f"{name} {repeat + 1:<3d} {cells}  {row['load0']:.2f} / {row['load1']:.2f}", flush=True)
                files[name] = files_of(out)
    for name, runs in rows.items():
        print(summary(name, runs))
    before, after = files["before"], files["after"]
    print(f"files: {len(after)} written; {'identical' if before == after else 'DIFFERENT'} before and after")
    for path in sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p)):
        print(f"  differs: {path}")


if __name__ == "__main__":
    main()
