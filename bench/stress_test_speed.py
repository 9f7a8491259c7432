"""Print the time of one TsT-RF stress-test (random + grouped folds) on 5,000 VSI-style questions.

Target (issue 23): under 60 s on the development machine. The questions are built in code: 625 per
question type of the eight VSI-Bench types' text patterns (numerical and multiple choice), 300 scenes.
"""

from __future__ import annotations

import time

import numpy as np

from spatialbench.analysis.shortcuts import stress_test
from spatialbench.records import AnswerKind, Item

OBJECTS = [f"object{i}" for i in range(40)]
NUMBER_TASKS = {
    "object_counting": "How many {0}(s) are in this room?",
    "object_abs_distance": "Measuring from the closest point of each object, what is the direct distance "
    "between the {0} and the {1} (in meters)?",
    "object_size_estimation": "What is the length of the longest dimension (length, width, or height) of the "
    "{0}, measured in centimeters?",
    "room_size_estimation": "What is the size of this room (in square meters)?",
}
CHOICE_TASKS = {
    "object_rel_distance": "Measuring from the closest point of each object, which of these objects "
    "({0}, {1}, {2}, {3}) is the closest to the {4}?",
    "object_rel_direction_hard": "If I am standing by the {0} and facing the {1}, is the {2} to my left?",
    "route_planning": "You are a robot beginning at the {0} facing the {1}. You want to navigate to the {2}.",
    "obj_appearance_order": "What will be the first-time appearance order of the following categories?",
}


def questions(n_per_task: int, seed: int = 0) -> list[Item]:
    """``8 * n_per_task`` items; answers drawn at random (no shortcut planted)."""
    rng = np.random.default_rng(seed)
    items: list[Item] = []
    for task, text in {**NUMBER_TASKS, **CHOICE_TASKS}.items():
        for _ in range(n_per_task):
            names = [str(x) for x in rng.choice(OBJECTS, size=5, replace=False)]
            common = {
                "id": str(len(items)),
                "benchmark": "vsibench",
                "task": task,
                "question": text.format(*names),
                "scene_id": f"scene{int(rng.integers(300))}",
            }
            if task in NUMBER_TASKS:
                items.append(
                    Item(
                        **common, ground_truth=f"{rng.uniform(0.5, 20):.1f}", answer_kind=AnswerKind.NUMERICAL
                    )
                )
            else:
                items.append(
                    Item(
                        **common,
                        options=tuple(f"{'ABCD'[i]}. {n}" for i, n in enumerate(names[:4])),
                        ground_truth="ABCD"[int(rng.integers(4))],
                        answer_kind=AnswerKind.MULTIPLE_CHOICE,
                    )
                )
    return items


def main() -> None:
    """Time both fold kinds on 5,000 questions and print the figure."""
    items = questions(625)
    start = time.perf_counter()
    stress_test(items, "random")
    middle = time.perf_counter()
    stress_test(items, "grouped")
    end = time.perf_counter()
    print(
        f"stress-test on {len(items)} questions: random folds {middle - start:.1f} s, "
        f"grouped folds {end - middle:.1f} s, both {end - start:.1f} s (target < 60 s)"
    )


if __name__ == "__main__":
    main()
