"""A 1-scene demo benchmark (synthetic: visibility known per frame) and scripted models that answer it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from spatialbench.records.item import Item


def demo_benchmark(root: Path) -> Path:
    """Write ``spatialbench demo``'s benchmark (1 scene, 6 s, seed 0: 42 items) under ``root``; its folder."""
    from spatialbench.demo import run_demo

    run_demo(root / "demo", scenes=1, seed=0, seconds=6.0, log=lambda line: None)
    return root / "demo" / "benchmark"


def scripted_model(items: Iterable[Item], right: Callable[[Item, int], bool]) -> Callable[[str, int], str]:
    """``ServerScript.answer_seen``: the item's gold answer when ``right(item, images sent)``, else "Z".

    The item is the one whose question the request carries (the demo's questions are unique); "Z" is no
    answer to any item, so it scores 0.
    """
    by_question = {item.question: item for item in items}

    def answer(text: str, n_images: int) -> str:
        item = next((it for q, it in by_question.items() if q in text), None)
        return item.ground_truth if item is not None and right(item, n_images) else "Z"

    return answer
