"""VSI-Bench (Thinking in Space): loader, pruned-id list, Table 9 prompts and the Fig. 6 table.

Modules: ``loader`` (official annotation files → items), ``pruned_ids`` (VSI-Bench-Debiased id lists),
``prompt`` (``prompt.json`` layout and post-prompts), ``table`` (the paper's 8 columns and Avg.).
Extraction modes ``official`` (the official lmms-eval rules) and ``robust`` (default).
"""

from __future__ import annotations

from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.benchmarks.vsibench.loader import (
    MCA_TASKS,
    NA_TASKS,
    NAME,
    REL_DIRECTION_TASKS,
    derived_id,
    load_vsibench,
    record_to_item,
)
from spatialbench.benchmarks.vsibench.prompt import VideoQABuilder
from spatialbench.benchmarks.vsibench.pruned_ids import read_pruned_ids
from spatialbench.benchmarks.vsibench.table import COLUMNS, vsibench_table
from spatialbench.scoring.rules import STANDARD_MODES, ScoringRules

SPEC = BenchmarkSpec(
    name=NAME,
    description="VSI-Bench (Thinking in Space): 8 tasks over ARKitScenes, ScanNet, ScanNet++ videos",
    load=load_vsibench,
    prompt_builder=VideoQABuilder,
    scoring=ScoringRules(name=NAME, table=vsibench_table, modes=STANDARD_MODES, default_mode="robust"),
)

__all__ = [
    "COLUMNS",
    "MCA_TASKS",
    "NA_TASKS",
    "REL_DIRECTION_TASKS",
    "SPEC",
    "VideoQABuilder",
    "derived_id",
    "load_vsibench",
    "read_pruned_ids",
    "record_to_item",
    "vsibench_table",
]
