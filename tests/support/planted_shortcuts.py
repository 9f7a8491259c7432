"""A small benchmark with a planted text-only shortcut (and its control), built in code."""

from __future__ import annotations

import numpy as np

from spatialbench.records import AnswerKind, Item

OBJECTS = [
    "chair",
    "table",
    "sofa",
    "bed",
    "desk",
    "stool",
    "shelf",
    "tv",
    "sink",
    "door",
    "window",
    "toilet",
]
SIZES = {name: 20.0 + 15.0 * i for i, name in enumerate(OBJECTS)}  # centimetres, one per category


def _mc(identifier: int, scene: str, options: list[str], gold: int, target: str) -> Item:
    question = (
        f"Measuring from the closest point of each object, which of these objects ({', '.join(options)}) "
        f"is the closest to the {target}?"
    )
    return Item(
        id=str(identifier),
        benchmark="vsibench",
        task="object_rel_distance",
        question=question,
        options=tuple(f"{'ABCD'[i]}. {o}" for i, o in enumerate(options)),
        ground_truth="ABCD"[gold],
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        scene_id=scene,
        dataset="synthetic",
    )


def planted_choices(n: int, planted: bool, seed: int = 0) -> tuple[list[Item], set[str]]:
    """Relative-distance items; when ``planted``, every second item's answer is ``lamp`` (always an option
    there and never elsewhere), the rest random. Returns the items and the planted ids."""
    rng = np.random.default_rng(seed)
    items, marked = [], set()
    for i in range(n):
        names = [str(x) for x in rng.choice(OBJECTS, size=5, replace=False)]
        options, target = names[:4], names[4]
        if planted and i % 2 == 0:
            options[int(rng.integers(4))] = "lamp"
            gold = options.index("lamp")
            marked.add(str(i))
        else:
            gold = int(rng.integers(4))
        items.append(_mc(i, f"scene{i % 40}", options, gold, target))
    return items, marked


def planted_sizes(n: int, planted: bool, seed: int = 0) -> list[Item]:
    """Object-size items; ``planted``: the category's size (±3 %), else log-uniform in 20–200 cm."""
    rng = np.random.default_rng(seed)
    items = []
    for i in range(n):
        name = OBJECTS[int(rng.integers(len(OBJECTS)))]
        size = (
            SIZES[name] * rng.uniform(0.97, 1.03)
            if planted
            else float(np.exp(rng.uniform(np.log(20), np.log(200))))
        )
        question = (
            f"What is the length of the longest dimension (length, width, or height) of the {name}, "
            "measured in centimeters?"
        )
        items.append(
            Item(
                id=str(1000 + i),
                benchmark="vsibench",
                task="object_size_estimation",
                question=question,
                ground_truth=f"{size:.0f}",
                answer_kind=AnswerKind.NUMERICAL,
                scene_id=f"scene{i % 40}",
                dataset="synthetic",
            )
        )
    return items


def planted_size_categories(n: int, seed: int = 0) -> tuple[list[Item], set[str]]:
    """Object sizes where every second category (chair, sofa, desk, ...) always has its size (±3 %) and
    the others are log-uniform in 20–200 cm; returns the items and the ids of the planted categories."""
    rng = np.random.default_rng(seed)
    items, marked = [], set()
    for i in range(n):
        name = OBJECTS[int(rng.integers(len(OBJECTS)))]
        fixed = OBJECTS.index(name) % 2 == 0
        if fixed:
            size = SIZES[name] * rng.uniform(0.97, 1.03)
        else:
            size = float(np.exp(rng.uniform(np.log(20), np.log(200))))
        if fixed:
            marked.add(str(i))
        question = (
            f"What is the length of the longest dimension (length, width, or height) of the {name}, "
            "measured in centimeters?"
        )
        items.append(
            Item(id=str(i), benchmark="vsibench", task="object_size_estimation", question=question,
                 ground_truth=f"{size:.0f}", answer_kind=AnswerKind.NUMERICAL, scene_id=f"scene{i % 40}",
                 dataset="synthetic")
        )
    return items, marked
