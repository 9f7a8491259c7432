"""``spatialbench demo`` (stand-in): build a tiny VSI-Bench-format example and score it end to end.

Until the synthetic-scene demo lands, this writes ``N`` scenes of generated questions (all 10 official
question types, ground truth from a seeded numpy Generator) as ``annotations.jsonl``, a predictions file
of plausible model answers in mixed formats, and scores them in ``robust`` and ``official`` modes.
Same seed → byte-identical files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer

from spatialbench.cli.apps import app

_DIRECTIONS = {
    "object_rel_direction_easy": ["left", "right"],
    "object_rel_direction_medium": ["left", "right", "back"],
    "object_rel_direction_hard": ["front-left", "front-right", "back-left", "back-right"],
}
_CHOICE_TASKS = ("object_rel_distance", "route_planning", "obj_appearance_order")
_NUMBER_TASKS = {  # question template, (low, high) of the ground truth, decimals
    "object_counting": ("How many chair(s) are in this room?", (1, 6), 0),
    "object_abs_distance": ("What is the distance between the sofa and the tv (in meters)?", (0.5, 5), 1),
    "object_size_estimation": ("What is the length of the longest dimension of the bed, measured in "
                               "centimeters?", (40, 220), 0),
    "room_size_estimation": ("What is the size of this room (in square meters)?", (8, 60), 1),
}


def _choice_record(task: str, rng: np.random.Generator) -> dict[str, Any]:
    texts = _DIRECTIONS.get(task) or ["sofa", "table", "bed", "lamp"]
    order = rng.permutation(len(texts))
    options = [f"{chr(65 + i)}. {texts[j]}" for i, j in enumerate(order)]
    truth = chr(65 + int(rng.integers(len(options))))
    return {"question_type": task, "question": f"Demo question for {task}?", "options": options,
            "ground_truth": truth}


def _number_record(task: str, rng: np.random.Generator) -> dict[str, Any]:
    question, (low, high), decimals = _NUMBER_TASKS[task]
    value = round(float(rng.uniform(low, high)), decimals)
    truth = str(int(value)) if decimals == 0 else str(value)
    return {"question_type": task, "question": question, "options": None, "ground_truth": truth}


def _response(record: dict[str, Any], rng: np.random.Generator) -> str:
    """Mock a model answer: right about half the time, in a mix of answer formats."""
    if record["options"]:
        guess = chr(65 + int(rng.integers(len(record["options"]))))
        letter = record["ground_truth"] if rng.random() < 0.5 else guess
        return str(rng.choice([letter, f"{letter}.", f"The answer is ({letter}).", f"**{letter}**"]))
    value = float(record["ground_truth"]) * float(rng.uniform(0.6, 1.4))
    return str(rng.choice([f"{value:.1f}", f"about {value:.1f}", f"{value:.2f} units"]))


def build_demo(out: Path, scenes: int, seed: int) -> tuple[Path, Path]:
    """Write ``annotations.jsonl`` and ``predictions.jsonl`` for ``scenes`` scenes; return their paths."""
    rng = np.random.default_rng(seed)
    records, responses = [], []
    tasks = [*_NUMBER_TASKS, *_DIRECTIONS, *_CHOICE_TASKS]
    for scene in range(scenes):
        for task in tasks:
            make = _number_record if task in _NUMBER_TASKS else _choice_record
            scene_name = f"demo{scene:03d}"
            record = {"id": len(records), "dataset": "demo", "scene_name": scene_name, **make(task, rng)}
            records.append(record)
            responses.append({"id": record["id"], "response": _response(record, rng)})
    out.mkdir(parents=True, exist_ok=True)
    annotations, predictions = out / "annotations.jsonl", out / "predictions.jsonl"
    annotations.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    predictions.write_text("".join(json.dumps(r) + "\n" for r in responses), encoding="utf-8")
    return annotations, predictions


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for demo files and scores.")] = Path(
        "demo-out"
    ),
    scenes: Annotated[int, typer.Option("--scenes", min=1, help="Number of demo scenes.")] = 3,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the numpy Generator.")] = 0,
) -> None:
    """Build a tiny VSI-Bench-format example and score it (stand-in for the synthetic-scene demo)."""
    from spatialbench.benchmarks.registry import load_items
    from spatialbench.scoring.output import render_markdown, write_scores
    from spatialbench.scoring.predictions import read_predictions
    from spatialbench.scoring.scorer import score_items

    annotations, predictions = build_demo(out, scenes, seed)
    items = load_items("vsibench", annotations)
    responses = read_predictions(predictions, items).responses
    for mode in ("robust", "official"):
        result = score_items(items, responses, benchmark="vsibench", extract=mode)
        typer.echo(render_markdown(result))
        write_scores(result, out / f"scores-{mode}")
    typer.echo(f"demo files in {out}")
