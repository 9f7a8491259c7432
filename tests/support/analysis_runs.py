"""Helpers of the analysis tests: a ``spatialbench run`` call, the official MRA, hand-made scenes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.scene import ObjectInstance, Scene, make_box

THRESHOLDS = np.linspace(0.5, 0.95, 10)
Boxes = dict[str, list[tuple[tuple[float, float, float], tuple[float, float, float]]]]


def mra(pred: float, truth: float) -> float:
    """Official MRA (relative error <= 1 - theta), written out for hand computations."""
    return float(np.mean(abs(pred - truth) / truth <= 1 - THRESHOLDS))


def run(root: Path, out: Path, model: str, *extra: str) -> None:
    """``spatialbench run`` of VSI-Bench data ``root`` into ``out``; asserts it answered every item."""
    args = ["run", "--benchmark", "vsibench", "--data", str(root), "--model", model, "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--no-progress", *extra])
    assert result.exit_code == 0, result.output


def scene_of(scene_id: str, dataset: str, boxes: Boxes) -> Scene:
    """A scene of axis-aligned boxes: category -> [(centre, size)], metres; room 8 m² centred at (2, 1)."""
    def instances(category: str) -> tuple[ObjectInstance, ...]:
        sized = enumerate(boxes[category])
        return tuple(ObjectInstance(category, i, make_box(np.array(c), np.array(e))) for i, (c, e) in sized)

    objects = {c: instances(c) for c in boxes}
    counts = {c: len(v) for c, v in boxes.items()}
    return Scene(scene_id, dataset, 8.0, np.array([2.0, 1.0, 1.0]), objects, counts)
