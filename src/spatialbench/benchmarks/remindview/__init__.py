"""ReMindView-Bench: QA-table format and loader, Table 7 prompts, 4-phase answer parsing, the paper's tables.

Modules: ``format`` (QA rows ⇄ items; the tables ``generate remindview`` writes), ``loader`` (CSV / Parquet
QA tables → items; folder layout), ``query`` (relation, query type,
perspective taking, pattern, distance level), ``prompt`` (system prompts, named multi-image input), ``phases``
(phase (1)–(4) parsing; extraction modes ``remindview-phases`` and ``remindview-official``), ``breakdown``
(Table 1, accuracy by object count and distance level). ``SPEC`` is benchmark ``remindview``; its
``official`` extraction mode is the official evaluation's reader, ``phases`` (default) reads phase (4).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from spatialbench.benchmarks.remindview.breakdown import remindview_tables
from spatialbench.benchmarks.remindview.format import BENCHMARK_NAME, item_to_row, write_items
from spatialbench.benchmarks.remindview.loader import load_remindview
from spatialbench.benchmarks.remindview.phases import (
    official_choice,
    parse_response,
    phases_choice,
    split_phases,
)
from spatialbench.benchmarks.remindview.prompt import (
    ReMindViewBuilder,
    build_request,
    layout,
    system_prompt,
    user_text,
)
from spatialbench.benchmarks.remindview.query import query_words
from spatialbench.benchmarks.spec import BenchmarkSpec, MediaLayout, RunDefaults
from spatialbench.records.item import Item
from spatialbench.scoring.grouped import Group, Table, grouped, with_items
from spatialbench.scoring.rules import STANDARD_MODES, ColumnGroup, Extractors, ScoringRules

#: columns computable from ``query_type`` alone: (label, part index, value); Table 1 needs the pattern too
TASK_COLUMNS = (
    ("V–V", 0, "view-view"),
    ("V–O", 0, "view-object"),
    ("O–O", 0, "object-object"),
    ("Dir.", 1, "relative_direction"),
    ("Dis.", 1, "relative_distance"),
)

#: the score table's columns grouped as Table 1's caption names them: relations, then query types (Table 1
#: itself splits each by viewpoint pattern, which needs the items: the report's Table 1 breakdowns)
COLUMN_GROUPS = (
    ColumnGroup("Relation", tuple(label for label, index, _ in TASK_COLUMNS if index == 0)),
    ColumnGroup("Query Type", tuple(label for label, index, _ in TASK_COLUMNS if index == 1)),
)


def _part(task: str, index: int) -> str:
    parts = task.split("|")
    return parts[index] if index < len(parts) else ""


def remindview_table(rows: pd.DataFrame) -> Table:
    """Question-weighted accuracy by relation and query type; ``average`` over all questions."""
    tasks = sorted(set(rows["task"]))
    columns = [
        Group.of(label, task=[t for t in tasks if _part(t, index) == value])
        for label, index, value in TASK_COLUMNS
    ]
    return grouped(rows, columns, weighting="questions")


def remindview_breakdowns(
    items: Sequence[Item], rows: pd.DataFrame, *, data_dir: Path | str | None = None
) -> list[Table]:
    """Table 1 (overall, per pattern), accuracy by object count and by distance level.

    ``data_dir`` is accepted (every breakdown gets the data folder) and not needed; no sub-benchmarks.
    """
    return remindview_tables(with_items(rows, items))


#: answer budget: the official evaluation's ``--max-new-tokens`` default (evaluation/eval_qwen_vl.py);
#: the paper gives none. The 4-phase answer (App. C, Table 7) needs hundreds of tokens: the runner's
#: fallback of 128 cut it before phase (4).
MAX_NEW_TOKENS = 5000
_OFFICIAL_NUMBER = STANDARD_MODES["official"].number

SPEC = BenchmarkSpec(
    name=BENCHMARK_NAME,
    description="ReMindView-Bench: multi-view spatial reasoning in procedurally generated indoor scenes",
    load=load_remindview,
    prompt_builder=ReMindViewBuilder,
    scoring=ScoringRules(
        name=BENCHMARK_NAME,
        table=remindview_table,
        modes={
            "phases": Extractors(phases_choice, _OFFICIAL_NUMBER),
            "official": Extractors(official_choice, _OFFICIAL_NUMBER),
            "robust": STANDARD_MODES["robust"],
        },
        default_mode="phases",
        column_groups=COLUMN_GROUPS,
    ),
    breakdowns=remindview_breakdowns,
    # items are still images: every frame of the frame set is sent
    defaults=RunDefaults(frames="all", max_new_tokens=MAX_NEW_TOKENS),
    title="ReMindView-Bench",
    media=MediaLayout("<data>/<folder_path>/frame<k>.png"),
    write=write_items,
    task_words=query_words,
)

__all__ = [
    "SPEC",
    "ReMindViewBuilder",
    "build_request",
    "item_to_row",
    "layout",
    "load_remindview",
    "parse_response",
    "remindview_breakdowns",
    "remindview_table",
    "split_phases",
    "system_prompt",
    "user_text",
]
