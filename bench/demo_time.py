"""Wall time of the built-in demo (issue 5 goal: at most 5 minutes for the default 3 scenes, on 2 CPU cores).

Usage: .venv/bin/python bench/demo_time.py [--scenes 3] [--seed 0] [--seconds 20] [--out DIR]
Prints the time of each stage, the total, and the questions generated per task with the filter removals.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from spatialbench.demo import run_demo
from spatialbench.demo.pipeline import DEMO_SECONDS

GOAL_S = 300.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=DEMO_SECONDS)
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
    verdict = "within" if wall <= GOAL_S else "OVER"
    print(f"demo wall time: {wall:.1f} s for {args.scenes} scenes of {args.seconds:g} s video", end=" ")
    print(f"({verdict} the {GOAL_S:.0f} s goal)")


if __name__ == "__main__":
    main()
