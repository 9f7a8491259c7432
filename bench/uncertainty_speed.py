"""Print the time of the scene-clustered bootstrap (1000 resamples) on a VSI-Bench-sized table.

5130 questions over 288 scenes and the 10 VSI-Bench tasks (the benchmark's size), the official table
(8 cells, Rel. Dir. = mean of three sub-tasks, Avg. = mean of task means):
``python bench/uncertainty_speed.py``.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from spatialbench.benchmarks import get_benchmark
from spatialbench.scoring.uncertainty import table_ci

TASKS = ("object_counting", "object_abs_distance", "object_size_estimation", "room_size_estimation",
         "object_rel_distance", "object_rel_direction_easy", "object_rel_direction_medium",
         "object_rel_direction_hard", "route_planning", "obj_appearance_order")


def main() -> None:
    rng = np.random.default_rng(0)
    n = 5130
    rows = pd.DataFrame({"id": [str(i) for i in range(n)], "task": rng.choice(TASKS, n),
                         "scene_id": [f"s{k}" for k in rng.integers(0, 288, n)], "dataset": "scannet",
                         "score": rng.uniform(size=n), "answered": True})
    table = get_benchmark("vsibench").scoring.table(rows)
    started = time.perf_counter()
    ci = table_ci(table)
    elapsed = time.perf_counter() - started
    print(f"table_ci: {len(ci)} keys, 1000 resamples, {n} questions, 288 scenes: {elapsed * 1000:.0f} ms")


if __name__ == "__main__":
    main()
