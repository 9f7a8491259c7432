"""CV-Bench: 2,638 vision-centric multiple-choice questions (Cambrian-1, Tong et al. 2024, arXiv 2406.16860).

Modules: ``loader`` (Hugging Face Parquet / JSONL + ``img/`` / VLMEvalKit TSV → items). ``SPEC`` is benchmark
``cvbench``: the image, then the release's pre-formatted ``prompt``; the table is the dataset card's
"CV-Bench Accuracy" = ½((ADE20K + COCO)/2 + Omni3D): column 2D is the mean of the two 2D sources' accuracies,
3D the Omni3D accuracy, Avg. their mean. Breakdowns: accuracy per source and per task.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from spatialbench.benchmarks.cvbench.loader import BENCHMARK_NAME, SOURCES, load_cvbench
from spatialbench.benchmarks.shared.choice import column_table, images_then_text
from spatialbench.benchmarks.spec import BenchmarkSpec, MediaLayout, RunDefaults
from spatialbench.records.item import Item
from spatialbench.scoring.grouped import Group, Table, grouped, with_items
from spatialbench.scoring.rules import STANDARD_MODES, ScoringRules


def prompt_text(item: Item) -> str:
    """Return the release's ``prompt`` field (question and lettered choices) as the model's text."""
    return item.question


def cvbench_table(rows: pd.DataFrame) -> Table:
    """2D = mean(ADE20K, COCO accuracies), 3D = Omni3D accuracy, Avg. = mean(2D, 3D) (dataset card)."""
    groups = [Group.of("2D", dataset=("ADE20K", "COCO")), Group.of("3D", dataset="Omni3D")]
    return grouped(rows, groups, weighting="columns", by="dataset")


def cvbench_breakdowns(
    items: Sequence[Item], rows: pd.DataFrame, *, data_dir: Path | str | None = None
) -> list[Table]:
    """Accuracy per image source (the card's "Source Accuracies") and per task."""
    joined = with_items(rows, items)
    by_source = column_table(joined, "dataset", SOURCES)
    by_task = column_table(joined, "task", ("Count", "Relation", "Depth", "Distance"))
    return [
        _titled(by_source, "CV-Bench: accuracy per source"),
        _titled(by_task, "CV-Bench: accuracy per task"),
    ]


def _titled(table: Table, title: str) -> Table:
    return replace(table, title=title)


CVBenchBuilder = images_then_text(prompt_text, "CVBenchBuilder")

SPEC = BenchmarkSpec(
    name=BENCHMARK_NAME,
    description="CV-Bench (Cambrian-1): 2D relation/count on ADE20K+COCO, 3D depth/distance on Omni3D",
    load=load_cvbench,
    prompt_builder=CVBenchBuilder,
    scoring=ScoringRules(name=BENCHMARK_NAME, table=cvbench_table, modes=STANDARD_MODES),
    breakdowns=cvbench_breakdowns,
    defaults=RunDefaults(frames="all"),
    title="CV-Bench",
    media=MediaLayout("images inside test_*.parquet / .tsv, or <data>/img/... named by filename"),
)

__all__ = ["SPEC", "CVBenchBuilder", "cvbench_breakdowns", "cvbench_table", "load_cvbench", "prompt_text"]
