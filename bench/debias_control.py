"""Print the time of `spatialbench debias` with and without its random-removal control, side by side.

Issue 23 item 3 / docs/workflows/shortcuts.md: on the 300 official sample questions
(``../shared/data/vsibench/official_samples/subset_300.jsonl``), ``--budget 100``, the matched random-removal
control (``--control-seeds``, default 10: one whole-benchmark stress-test a seed) is most of the run's time.
Each setting runs as its own ``spatialbench debias`` process; its wall time and CPU seconds (user + system of
the child) are printed with the load average before and after, and the two removed-id lists are compared.

Usage: ``.venv/bin/python bench/debias_control.py [--seeds 10 0] [--budget 100]``
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared/data/vsibench/official_samples/subset_300.jsonl"


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_debias(seeds: int, budget: int, out: Path) -> tuple[float, float]:
    """Run one debias; return (wall s, CPU s)."""
    command = [str(Path(sys.executable).parent / "spatialbench"), "debias", "--benchmark", "vsibench",
               "--data", str(DATA), "--budget", str(budget), "--control-seeds", str(seeds), "--out", str(out)]
    cpu, start = _child_cpu(), time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start, _child_cpu() - cpu


def main() -> None:
    """Time each --control-seeds setting once, in the order given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[10, 0])
    parser.add_argument("--budget", type=int, default=100)
    args = parser.parse_args()
    removed = {}
    with tempfile.TemporaryDirectory() as tmp:
        for seeds in args.seeds:
            out = Path(tmp) / f"seeds{seeds}"
            load = os.getloadavg()[0]
            wall, cpu = timed_debias(seeds, args.budget, out)
            removed[seeds] = (out / "removed_ids.txt").read_text()
            print(f"--control-seeds {seeds}: {wall:.1f} s wall, {cpu:.1f} s CPU "
                  f"(load {load:.1f} -> {os.getloadavg()[0]:.1f})")
    same = len(set(removed.values())) == 1
    print(f"removed ids identical across settings: {same}")


if __name__ == "__main__":
    main()
