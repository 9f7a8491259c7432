"""MMSI-Bench: 1,000 multi-image spatial multiple-choice questions (Yang et al. 2025, arXiv 2505.23764).

Modules: ``loader`` (Hugging Face Parquet or VLMEvalKit TSV → items), ``extraction`` (the official
post-prompt and letter reader). ``SPEC`` is benchmark ``mmsi-bench``: every image, then the question
(options written in it) and the official post-prompt; extraction ``official`` (default) or ``robust``;
the table is accuracy per question type, Avg. over all questions (the paper's Table 2 columns).
"""

from __future__ import annotations

import pandas as pd

from spatialbench.benchmarks.mmsi_bench.extraction import POST_PROMPT, mmsi_choice
from spatialbench.benchmarks.mmsi_bench.loader import BENCHMARK_NAME, load_mmsi_bench
from spatialbench.benchmarks.shared.choice import column_table, images_then_text
from spatialbench.benchmarks.spec import BenchmarkSpec, MediaLayout, RunDefaults
from spatialbench.records.item import Item
from spatialbench.scoring.grouped import Table
from spatialbench.scoring.rules import STANDARD_MODES, Extractors, ScoringRules


def prompt_text(item: Item) -> str:
    """Return the official text: the question, a line break, the post-prompt (``build_prompt``)."""
    return f"{item.question}\n{POST_PROMPT}"


def mmsi_bench_table(rows: pd.DataFrame) -> Table:
    """Accuracy per question type; Avg. = overall accuracy over all questions (the official ``overall``)."""
    return column_table(rows, "task")


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
    ),
    defaults=RunDefaults(frames="all"),
    title="MMSI-Bench",
    media=MediaLayout("images inside MMSI_Bench.parquet / .tsv, written to <data>/images/<stem>/"),
)

__all__ = ["SPEC", "MMSIBenchBuilder", "load_mmsi_bench", "mmsi_bench_table", "mmsi_choice", "prompt_text"]
