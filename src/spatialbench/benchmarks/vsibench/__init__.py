"""VSI-Bench (Thinking in Space): record format, loader, subsets, Table 9 prompts and the Fig. 6 table.

Modules: ``format`` (official records ⇄ items; the files generators write), ``loader`` (official annotation
files → items), ``subsets`` (VSI-Bench (tiny) and VSI-Bench-Debiased), ``pruned_ids`` (VSI-Bench-Debiased
id lists), ``prompt`` (``prompt.json`` layout and post-prompts), ``table`` (the paper's 8 columns and
Avg.); ``error_taxonomy.json`` (Sec. 5.1; the error table's columns are the 8 tasks). Extraction modes
``official`` (the official lmms-eval rules) and ``robust`` (default), and the peer toolkits' modes
``lmms-eval-0.7.2``, ``lmms-eval-0.7.3``, ``vlmevalkit``.
"""

from __future__ import annotations

from spatialbench.benchmarks.spec import BenchmarkSpec, ErrorTaxonomy, MediaLayout
from spatialbench.benchmarks.vsibench.format import (
    MCA_TASKS,
    NA_TASKS,
    NAME,
    REL_DIRECTION_TASKS,
    item_to_record,
    record_to_item,
    write_items,
)
from spatialbench.benchmarks.vsibench.loader import derived_id, load_vsibench, load_vsibench_table
from spatialbench.benchmarks.vsibench.prompt import VideoQABuilder
from spatialbench.benchmarks.vsibench.pruned_ids import read_pruned_ids
from spatialbench.benchmarks.vsibench.subsets import SUBSETS
from spatialbench.benchmarks.vsibench.table import COLUMN_GROUPS, COLUMNS, vsibench_table
from spatialbench.scoring.rules import PEER_MODES, STANDARD_MODES, ScoringRules

SPEC = BenchmarkSpec(
    name=NAME,
    description="VSI-Bench (Thinking in Space): 8 tasks over ARKitScenes, ScanNet, ScanNet++ videos",
    load=load_vsibench,
    table_loader=load_vsibench_table,
    prompt_builder=VideoQABuilder,
    scoring=ScoringRules(
        name=NAME, table=vsibench_table, modes={**STANDARD_MODES, **PEER_MODES}, default_mode="robust",
        column_groups=COLUMN_GROUPS,
    ),
    title="VSI-Bench",
    media=MediaLayout("<data>/<dataset>/<scene_name>.mp4"),
    subsets=SUBSETS,
    # error-table columns are the paper's 8 tasks (Rel. Dir. = its three sub-types), as its tables
    error_taxonomy=ErrorTaxonomy(
        "vsi-bench", __name__, columns=tuple((g.label, tuple(g.parts("task"))) for g in COLUMNS)
    ),
    pruned_ids=read_pruned_ids,
    write=write_items,
)

__all__ = [
    "COLUMNS",
    "MCA_TASKS",
    "NA_TASKS",
    "REL_DIRECTION_TASKS",
    "SPEC",
    "VideoQABuilder",
    "derived_id",
    "item_to_record",
    "load_vsibench",
    "read_pruned_ids",
    "record_to_item",
    "vsibench_table",
]
