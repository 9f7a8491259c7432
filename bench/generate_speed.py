"""Wall time of generating all seven VSI-Bench meta-info tasks for all 288 official scenes (goal <= 10 s).

Usage: .venv/bin/python bench/generate_speed.py [META_INFO_DIR] [--repeat N]
Prints per-task counts beside the official totals, the frequency baseline per task, and the wall time
(loading the meta-info, generating, assembling and writing JSONL + Parquet + manifest).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from spatialbench.generate.vsi import GenerationSettings, builtin_tasks, generate_vsibench, write_benchmark
from spatialbench.generate.vsi.fidelity import OFFICIAL_COUNTS as OFFICIAL
from spatialbench.scene import load_meta_info

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "vsibench" / "meta_info"


def run_once(meta_info: Path, out: Path) -> tuple[float, dict]:
    start = time.perf_counter()
    scenes = load_meta_info(meta_info)
    bench = generate_vsibench(scenes.values(), builtin_tasks(), GenerationSettings(seed=0))
    write_benchmark(bench.items, bench.manifest, out)
    return time.perf_counter() - start, bench.manifest


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("meta_info", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        times = []
        for _ in range(args.repeat):
            seconds, manifest = run_once(args.meta_info, Path(tmp))
            times.append(seconds)
    print(f"{'task':30s} {'generated':>9s} {'official':>8s} {'candidates':>10s} {'freq. baseline':>14s}")
    for task, entry in manifest["tasks"].items():
        counts = f"{entry['count']:9d} {OFFICIAL[task]:8d} {entry['candidates']:10d}"
        print(f"{task:30s} {counts} {entry['frequency_baseline']:13.1f}%")
    print(f"{'total':30s} {manifest['total']:9d} {sum(OFFICIAL.values()):8d}")
    print(
        f"generate all 7 tasks for {args.meta_info}: best {min(times):.2f} s, "
        f"median {sorted(times)[len(times) // 2]:.2f} s over {len(times)} runs (goal <= 10 s)"
    )


if __name__ == "__main__":
    main()
