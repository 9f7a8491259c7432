"""Constructors of candidates about one scene (fill task, scene and dataset once, format numbers once)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spatialbench.generate.vsi.base import Candidate
from spatialbench.generate.vsi.options import format_number
from spatialbench.scene.model import Scene


def numeric_candidate(
    task: str,
    scene: Scene,
    question: str,
    value: float,
    decimals: int,
    metadata: Mapping[str, Any] | None = None,
) -> Candidate:
    """Build a numerical candidate; the ground truth is ``value`` formatted as the official files do."""
    answer = format_number(value, decimals)
    return Candidate(
        task, scene.scene_id, scene.dataset, question, answer, (), float(value), decimals, metadata or {}
    )


def choice_candidate(
    task: str, scene: Scene, question: str, answer: str, choices: tuple[str, ...], metadata: Mapping[str, Any]
) -> Candidate:
    """Build a multiple-choice candidate (choices unordered; the assembler orders them)."""
    return Candidate(task, scene.scene_id, scene.dataset, question, answer, choices, metadata=metadata)


def unique_in_order(scene: Scene, order: str) -> list[str]:
    """Return the unique categories in ``object_counts`` order (``order="counts"``) or ``object_bbox`` order.

    The official generator walks ``object_counts`` (issue 10: abs. distance naming order and direction
    role orders follow it on every official question of the sample files).
    """
    unique = scene.unique_categories()
    return [c for c in scene.counts if c in unique] if order == "counts" else unique
