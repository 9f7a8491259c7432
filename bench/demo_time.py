"""Wall time and peak memory of the built-in demo (default 3 scenes of 20 s).

Goals: issue 5, at most 5 minutes on 2 CPU cores; issue 16, at most 30 s alone on the development machine
and a peak resident set of at most 800 MB.

Usage: .venv/bin/python bench/demo_time.py [--scenes 3] [--seed 0] [--seconds 20] [--out DIR]
Prints the time of each stage, the total, the peak RSS and CPU time of the process and of its background
writer process (the video and npz writer, issue 25), and the questions generated per task with the
filter removals.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from spatialbench.demo import run_demo
from spatialbench.demo.pipeline import DEMO_SECONDS

GOAL_S, FAST_GOAL_S, RSS_GOAL_MB = 300.0, 30.0, 800.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=3, help="scenes of the demo (its default: 3)")
    parser.add_argument("--seed", type=int, default=0, help="the demo's seed")
    parser.add_argument("--seconds", type=float, default=DEMO_SECONDS, help="video length of each scene, s")
    parser.add_argument(
        "--out", type=Path, default=None, help="keep the output here (default: a temp folder)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp) / "demo"
        start = time.perf_counter()
        result = run_demo(out, scenes=args.scenes, seed=args.seed, seconds=args.seconds, log=lambda _: None)
        wall = time.perf_counter() - start
    for stage, seconds in result.timings_s.items():
        print(f"{stage:28s} {seconds:7.1f} s")
    for task, count in result.questions.items():
        removed = ", ".join(f"{rule} {n}" for rule, n in result.removed[task].items() if n) or "-"
        print(f"{task:30s} {count:4d} questions; removed: {removed}")
    usage, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    verdict = "within" if wall <= GOAL_S else "OVER"
    fast = "within" if wall <= FAST_GOAL_S else "over"
    print(f"demo wall time: {wall:.1f} s for {args.scenes} scenes of {args.seconds:g} s video", end=" ")
    print(f"({verdict} the {GOAL_S:.0f} s goal, {fast} the {FAST_GOAL_S:.0f} s goal of issue 16)")
    rss, cpu = usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime
    child_rss, child_cpu = children.ru_maxrss / 1024, children.ru_utime + children.ru_stime
    print(f"CPU time {cpu + child_cpu:.1f} s ({cpu:.1f} s this process, {child_cpu:.1f} s", end=" ")
    print(f"its writer process; {(cpu + child_cpu) / wall:.2f} cores busy on average)")
    memory = "within" if rss <= RSS_GOAL_MB else "OVER"
    print(f"peak RSS {rss:.0f} MB ({memory} the {RSS_GOAL_MB:.0f} MB goal), writer process", end=" ")
    print(f"{child_rss:.0f} MB")


if __name__ == "__main__":
    main()
