"""MMSI-Bench: 1,000 multi-image spatial multiple-choice questions (Yang et al. 2025, arXiv 2505.23764).

Modules: ``loader`` (Hugging Face Parquet or VLMEvalKit TSV → items), ``extraction`` (the official
post-prompt and letter reader). ``SPEC`` is benchmark ``mmsi-bench``: every image, then the question
(options written in it) and the official post-prompt; extraction ``official`` (default) or ``robust``;
the table is accuracy per question type, Avg. over all questions (the paper's Table 2 columns).
Loader option ``evaluation=circular`` asks each question with its options rotated four times (``circular``);
the table then counts a question right only when all four rotations are, and the breakdown adds the
official ``Vanilla`` figure (rotation 0 alone).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from spatialbench.benchmarks.mmsi_bench.circular import group_of
from spatialbench.benchmarks.mmsi_bench.extraction import POST_PROMPT, mmsi_choice
from spatialbench.benchmarks.mmsi_bench.loader import (
    BENCHMARK_NAME,
    CATEGORIES,
    LABELS,
    ORDER,
    check_evaluation,
    load_mmsi_bench,
)
from spatialbench.benchmarks.shared.choice import column_table, images_then_text
from spatialbench.benchmarks.shared.variants import all_variants_right
from spatialbench.benchmarks.spec import BenchmarkSpec, MediaLayout, RunDefaults
from spatialbench.records.item import Item
from spatialbench.scoring.grouped import Table
from spatialbench.scoring.rules import STANDARD_MODES, ColumnGroup, Extractors, ScoringRules

COLUMN_GROUPS = tuple(
    ColumnGroup(c, tuple(f"{c} ({p})" for p in parts)) for c, parts in CATEGORIES.items()
)


def prompt_text(item: Item) -> str:
    """Return the official text: the question, a line break, the post-prompt (``build_prompt``)."""
    return f"{item.question}\n{POST_PROMPT}"


def mmsi_bench_table(rows: pd.DataFrame) -> Table:
    """Accuracy per question type; Avg. = overall accuracy over all questions (the official ``overall``).

    Rotations of one question (circular evaluation) count as one question, right only when all are; a
    vanilla run has one row per question and is tabulated as it is.
    """
    return column_table(all_variants_right(rows, group_of), "task", ORDER, LABELS)


def _category(task: str) -> str:
    """Return the main category of a question type: ``Motion (Cam.)`` → ``Motion``; ``MSR`` stays ``MSR``."""
    return next((c for c in CATEGORIES if task.startswith(f"{c} (")), task)


def mmsi_bench_breakdowns(
    items: Sequence[Item], rows: pd.DataFrame, *, data_dir: Path | str | None = None
) -> list[Table]:
    """Return the paper's Table 2: accuracy per question type, then per main category (MSR alone).

    For a circular run (rotations of one question counted as one), the official ``Vanilla`` table follows:
    rotation 0 of each question alone.
    """
    questions = all_variants_right(rows, group_of)
    by_type = replace(mmsi_bench_table(rows), title="MMSI-Bench: accuracy per question type (Table 2)")
    categorised = questions.assign(category=questions["task"].astype(str).map(_category))
    by_category = replace(column_table(categorised, "category", (*CATEGORIES, "MSR")),
                          title="MMSI-Bench: accuracy per main category")
    first = rows[rows["id"].astype(str).map(group_of) == rows["id"].astype(str)]
    if len(first) == len(rows):
        return [by_type, by_category]
    vanilla = column_table(first, "task", ORDER, LABELS)
    return [by_type, by_category, replace(vanilla, title="MMSI-Bench: vanilla (rotation 0 of each question)")]


MMSIBenchBuilder = images_then_text(prompt_text, "MMSIBenchBuilder")

SPEC = BenchmarkSpec(
    name=BENCHMARK_NAME,
    description="MMSI-Bench: 1,000 multi-image spatial reasoning multiple-choice questions",
    load=load_mmsi_bench,
    prompt_builder=MMSIBenchBuilder,
    scoring=ScoringRules(
        name=BENCHMARK_NAME,
        table=mmsi_bench_table,
        modes={
            "official": Extractors(mmsi_choice, STANDARD_MODES["official"].number),
            "robust": STANDARD_MODES["robust"],
        },
        default_mode="official",
        column_groups=COLUMN_GROUPS,
    ),
    breakdowns=mmsi_bench_breakdowns,
    defaults=RunDefaults(frames="all"),
    option_checks={"evaluation": check_evaluation},
    title="MMSI-Bench",
    media=MediaLayout("images inside MMSI_Bench.parquet / .tsv, written to <data>/images/<stem>/"),
)

__all__ = [
    "SPEC",
    "MMSIBenchBuilder",
    "load_mmsi_bench",
    "mmsi_bench_breakdowns",
    "mmsi_bench_table",
    "mmsi_choice",
    "prompt_text",
]
