"""BLINK: 14 perception tasks as multiple choice (Fu et al. 2024, arXiv 2404.12390), validation split.

Modules: ``loader`` (Hugging Face Parquet per subtask or VLMEvalKit TSV → items; ``subset="spatial"`` keeps
four spatial subtasks). ``SPEC`` is benchmark ``blink``: the images, then the release's ``prompt``; the
robust reader is the default (the official pipeline matches answers with GPT-3.5, ``multiple_choice.py``,
which no rule reproduces). The table is the official ``eval_prediction``: accuracy per subtask, Avg. = the
mean of the subtask accuracies ("Total").
"""

from __future__ import annotations

import pandas as pd

from spatialbench.benchmarks.blink.loader import BENCHMARK_NAME, SPATIAL, SUBTASKS, load_blink, spatial_only
from spatialbench.benchmarks.shared.choice import images_then_text
from spatialbench.benchmarks.spec import BenchmarkSpec, MediaLayout, RunDefaults, Subset
from spatialbench.records.item import Item
from spatialbench.scoring.grouped import Group, Table, grouped
from spatialbench.scoring.rules import STANDARD_MODES, ScoringRules


def prompt_text(item: Item) -> str:
    """Return the release's ``prompt`` (question, "Select from the following choices.", ``(A) ...``)."""
    return item.question


def blink_table(rows: pd.DataFrame) -> Table:
    """Accuracy per subtask (official order, then others); Avg. = mean of the subtask accuracies present.

    Every subtask BLINK defines is a column — the four of ``--subset spatial`` when the rows hold only
    those — so a subtask without items prints ``-`` and the table's note says "Avg. is over n of m"
    (issue 24). Headers print the config name with spaces (``Relative Depth``, as the paper names them).
    """
    present = {str(t) for t in rows["task"]}
    defined = SPATIAL if present <= set(SPATIAL) else SUBTASKS
    order = list(defined) + sorted(present - set(defined))
    return grouped(rows, [Group.of(t.replace("_", " "), t, task=t) for t in order], weighting="columns")


BlinkBuilder = images_then_text(prompt_text, "BlinkBuilder")

SPEC = BenchmarkSpec(
    name=BENCHMARK_NAME,
    description="BLINK: 14 visual perception tasks (depth, correspondence, multi-view...), val split",
    load=load_blink,
    prompt_builder=BlinkBuilder,
    scoring=ScoringRules(name=BENCHMARK_NAME, table=blink_table, modes=STANDARD_MODES),
    defaults=RunDefaults(frames="all"),
    title="BLINK",
    media=MediaLayout("images inside <Subtask>/val-*.parquet / BLINK.tsv, written to <data>/images/<stem>/"),
    subsets=(
        Subset("spatial", f"BLINK spatial: {', '.join(SPATIAL)}", spatial_only, label="BLINK (spatial)"),
    ),
)

__all__ = ["SPATIAL", "SPEC", "SUBTASKS", "BlinkBuilder", "blink_table", "load_blink", "prompt_text"]
