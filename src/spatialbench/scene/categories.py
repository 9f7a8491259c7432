"""Category vocabulary and remapping of VSI-Bench (App. B.1), read from ``scene/data/categories.json``.

The meta-information keeps the curated source categories; a few are shown under another name in the
official questions (remapping refined during human review). :func:`question_name` gives the name a
question uses; :func:`scene_category` maps a question's name back to the scene's category.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from spatialbench.scene.model import Scene


@cache
def _data() -> dict[str, Any]:
    text = resources.files("spatialbench.scene").joinpath("data/categories.json").read_text()
    return dict(json.loads(text))


def vocabulary(dataset: str | None = None) -> list[str]:
    """Sorted categories of one source dataset's meta-info, or of all datasets when None.

    Raises:
        KeyError: unknown dataset (the message lists the known ones).
    """
    vocab: dict[str, list[str]] = _data()["vocabulary"]
    if dataset is None:
        return sorted({c for cats in vocab.values() for c in cats})
    if dataset not in vocab:
        raise KeyError(f"no vocabulary for dataset {dataset!r}; known: {', '.join(vocab)}")
    return list(vocab[dataset])


def question_name(category: str) -> str:
    """Return the name official questions use for a meta-info category (itself unless remapped)."""
    return str(_data()["question_names"].get(category, category))


def scene_category(scene: Scene, name: str) -> str | None:
    """Return the scene category a question's ``name`` refers to, or None when the scene has none."""
    if scene.count(name):
        return name
    for category in scene.objects:
        if question_name(category) == name:
            return category
    return None
