"""ViewSpatial-Bench: camera- and person-perspective spatial questions (Li et al. 2025, arXiv 2505.21500).

Modules: ``loader`` (``ViewSpatial-Bench.json`` or a TSV → items), ``extraction`` (the official last-line
letter reader and the default one that does not take the article "a" for option A). ``SPEC`` is benchmark
``viewspatial``: the images, then the question, its choices and the official ``prompt_format``; the table is
accuracy per question type, Avg. over all questions (the official overall); the breakdown groups camera vs
person perspective.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from spatialbench.benchmarks.shared.choice import column_table, images_then_text
from spatialbench.benchmarks.spec import BenchmarkSpec, MediaLayout, RunDefaults
from spatialbench.benchmarks.viewspatial.extraction import PROMPT_FORMAT, official_choice, viewspatial_choice
from spatialbench.benchmarks.viewspatial.loader import BENCHMARK_NAME, load_viewspatial
from spatialbench.records.item import Item
from spatialbench.scoring.grouped import Table, with_items
from spatialbench.scoring.rules import STANDARD_MODES, ColumnGroup, Extractors, ScoringRules

_NUMBER = STANDARD_MODES["official"].number

#: the release's question types in the order and under the headers of the paper's main table (the README's
#: docs/main_result.png): Camera-based Tasks Rel. Dir., Obj. Ori.; Person-based Tasks Obj. Ori., Rel. Dir.,
#: Sce. Sim. Labels say the perspective, since a label names one column (the serve UI keys by it).
CAMERA = {"Camera perspective - Relative Direction": "Cam. Rel. Dir.",
          "Camera perspective - Object View Orientation": "Cam. Obj. Ori."}
PERSON = {"Person perspective - Object View Orientation": "Per. Obj. Ori.",
          "Person perspective - Relative Direction": "Per. Rel. Dir.",
          "Person perspective - Scene Simulation Relative Direction": "Per. Sce. Sim."}
COLUMN_GROUPS = (
    ColumnGroup("Camera-based Tasks", tuple(CAMERA)),
    ColumnGroup("Person-based Tasks", tuple(PERSON)),
)


def prompt_text(item: Item) -> str:
    """Return the official text: question, choices (one per line) and ``prompt_format``, joined as is.

    ``evaluate.py`` (since commit 90a8c34) sends ``item["question"] + item["choices"] + prompt_format``:
    no separator between the question and its first choice, which is reproduced here.
    """
    return item.question + "\n".join(item.options) + PROMPT_FORMAT


def viewspatial_table(rows: pd.DataFrame) -> Table:
    """Accuracy per question type (the paper's order); Avg. over all questions (``evaluate_vlm``'s)."""
    return column_table(rows, "task", (*CAMERA, *PERSON), {**CAMERA, **PERSON})


def viewspatial_breakdowns(
    items: Sequence[Item], rows: pd.DataFrame, *, data_dir: Path | str | None = None
) -> list[Table]:
    """Accuracy per perspective (camera vs person)."""
    table = column_table(with_items(rows, items), "perspective", ("Camera perspective", "Person perspective"))
    return [replace(table, title="ViewSpatial-Bench: accuracy per perspective")]


ViewSpatialBuilder = images_then_text(prompt_text, "ViewSpatialBuilder")

SPEC = BenchmarkSpec(
    name=BENCHMARK_NAME,
    description="ViewSpatial-Bench: camera vs person perspective spatial localisation questions",
    load=load_viewspatial,
    prompt_builder=ViewSpatialBuilder,
    scoring=ScoringRules(
        name=BENCHMARK_NAME,
        table=viewspatial_table,
        modes={
            "viewspatial": Extractors(viewspatial_choice, _NUMBER),
            "official": Extractors(official_choice, _NUMBER),
            "robust": STANDARD_MODES["robust"],
        },
        default_mode="viewspatial",
        column_groups=COLUMN_GROUPS,
    ),
    breakdowns=viewspatial_breakdowns,
    defaults=RunDefaults(frames="all"),
    title="ViewSpatial-Bench",
    media=MediaLayout("<data>/<image_path> (ViewSpatial-Bench/scannetv2_val/..., .../val2017/...)"),
)

__all__ = ["SPEC", "ViewSpatialBuilder", "load_viewspatial", "official_choice", "viewspatial_choice"]
