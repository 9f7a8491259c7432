"""EmbSpatial-Bench: 3,640 egocentric spatial-relation questions from embodied scenes (Du et al. 2024, ACL).

Modules: ``loader`` (the release JSON or the EASI TSV → items). The authors released no inference or scoring
code (their README: accuracy; VLMEvalKit: "EmbSpatial has not yet released official inference code"), so
``SPEC`` (benchmark ``embspatial``) follows VLMEvalKit's ``EmbSpatialBench``, which EASI runs: the image,
then ``Question: q``, ``Options:`` with ``A: text`` lines and ``Give me the answer letter directly. The best
answer is:``; the letter read by VLMEvalKit's ``can_match_option`` (``scoring.peer_vlmevalkit``); the table
is accuracy per source (mp3d, ai2thor, scannet), Avg. over all questions (the kit's ``overall``). The
breakdown gives accuracy per spatial relation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from spatialbench.benchmarks.embspatial.loader import BENCHMARK_NAME, SOURCES, load_embspatial
from spatialbench.benchmarks.shared.choice import column_table, images_then_text
from spatialbench.benchmarks.spec import BenchmarkSpec, MediaLayout, RunDefaults
from spatialbench.records.item import Item
from spatialbench.scoring.grouped import Table
from spatialbench.scoring.peer_vlmevalkit import vlmevalkit_choice
from spatialbench.scoring.rules import STANDARD_MODES, Extractors, ScoringRules

POST_PROMPT = "Give me the answer letter directly. The best answer is:"


def prompt_text(item: Item) -> str:
    """Return the kit's text: ``Question: q``, ``Options:``, ``A: text`` lines, the post-prompt."""
    options = "\n".join(f"{o[0]}: {o[3:]}" for o in item.options)
    return f"Question: {item.question}\nOptions:\n{options}\n{POST_PROMPT}"


def embspatial_table(rows: pd.DataFrame) -> Table:
    """Accuracy per source (mp3d, ai2thor, scannet, then any other); Avg. over all questions."""
    return column_table(rows, "dataset", SOURCES)


def embspatial_breakdowns(
    items: Sequence[Item], rows: pd.DataFrame, *, data_dir: Path | str | None = None
) -> list[Table]:
    """Accuracy per spatial relation (the item's task)."""
    return [replace(column_table(rows, "task"), title="EmbSpatial-Bench: accuracy per relation")]


EmbSpatialBuilder = images_then_text(prompt_text, "EmbSpatialBuilder")

SPEC = BenchmarkSpec(
    name=BENCHMARK_NAME,
    description="EmbSpatial-Bench: egocentric spatial relations in MP3D, AI2-THOR and ScanNet scenes",
    load=load_embspatial,
    prompt_builder=EmbSpatialBuilder,
    scoring=ScoringRules(
        name=BENCHMARK_NAME,
        table=embspatial_table,
        modes={
            # the authors released no scorer: "official" is the rule EASI/VLMEvalKit score with
            "official": Extractors(vlmevalkit_choice, STANDARD_MODES["official"].number),
            "robust": STANDARD_MODES["robust"],
        },
        default_mode="official",
    ),
    breakdowns=embspatial_breakdowns,
    defaults=RunDefaults(frames="all"),
    title="EmbSpatial-Bench",
    media=MediaLayout(
        "images inside embspatial_bench.json / EmbSpatialBench.tsv, written to <data>/images/<stem>/"
    ),
)

__all__ = [
    "SPEC",
    "EmbSpatialBuilder",
    "embspatial_breakdowns",
    "embspatial_table",
    "load_embspatial",
    "prompt_text",
]
