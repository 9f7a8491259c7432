"""MindCube: spatial mental modelling from a few views (Wang, Yin et al. 2025, arXiv 2506.21458).

Modules: ``loader`` (release JSONL or EASI TSV → items; ``subset="tiny"`` for MindCube-Tiny),
``extraction`` (the official ``extract_answer`` and an ``<answer>``-tag-first reader). ``SPEC`` is benchmark
``mindcube``: every image, then the official raw-QA prompt (``prompt.json``: task, answer instruction,
``[Question]``, the question with its options); extraction ``official`` (default), ``answer-tag`` or
``robust``. The table is accuracy per setting (rotation, among, around; ``other`` when present) and the
overall over them: ``translation`` questions are tracked but left out of the overall, as the official
``initialize_basic_results_structure`` does (they appear in the breakdown).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from spatialbench.benchmarks.mindcube.extraction import answer_tag_choice, official_choice
from spatialbench.benchmarks.mindcube.loader import (
    BENCHMARK_NAME,
    SETTINGS,
    check_prompt,
    load_mindcube,
    tiny_only,
)
from spatialbench.benchmarks.shared.choice import column_table, images_then_text
from spatialbench.benchmarks.spec import BenchmarkSpec, MediaLayout, RunDefaults, Subset
from spatialbench.prompting.templates import fill, read_json
from spatialbench.records.item import Item
from spatialbench.scoring.grouped import Group, Table, grouped
from spatialbench.scoring.rules import STANDARD_MODES, Extractors, ScoringRules

_NUMBER = STANDARD_MODES["official"].number
IN_OVERALL = ("rotation", "among", "around", "other")
"""The settings the official overall counts (``translation`` is left out)."""


def prompt_text(item: Item) -> str:
    """Return the item's ``input_prompt`` (a release prompt file's), else the official raw-QA prompt.

    Raw QA: ``RawQATemplate.generate_prompt``. A prompt file's ``input_prompt`` is that setting's prompt
    as the official ``generate_prompts.py`` wrote it (``plain_cgmap_out``: a map before the answer).
    """
    given = item.metadata.get("input_prompt")
    if isinstance(given, str) and given.strip():
        return given
    return fill(read_json(__name__, "prompt.json")["raw_qa"], {"question": item.question})


def mindcube_table(rows: pd.DataFrame) -> Table:
    """Accuracy per setting present among ``IN_OVERALL``; Avg. = correct / total over them (official)."""
    present = {str(t) for t in rows["task"]}
    groups = [Group.of(s, task=s) for s in IN_OVERALL if s in present]
    return grouped(rows, groups, weighting="questions")


def mindcube_breakdowns(
    items: Sequence[Item], rows: pd.DataFrame, *, data_dir: Path | str | None = None
) -> list[Table]:
    """Accuracy per setting, translation included (Avg. here over every question)."""
    return [replace(column_table(rows, "task", SETTINGS), title="MindCube: accuracy per setting (all)")]


MindCubeBuilder = images_then_text(prompt_text, "MindCubeBuilder")

SPEC = BenchmarkSpec(
    name=BENCHMARK_NAME,
    description="MindCube: spatial mental models from limited views (rotation / among / around)",
    load=load_mindcube,
    prompt_builder=MindCubeBuilder,
    scoring=ScoringRules(
        name=BENCHMARK_NAME,
        table=mindcube_table,
        modes={
            "official": Extractors(official_choice, _NUMBER),
            "answer-tag": Extractors(answer_tag_choice, _NUMBER),
            "robust": STANDARD_MODES["robust"],
        },
        default_mode="official",
    ),
    breakdowns=mindcube_breakdowns,
    defaults=RunDefaults(frames="all"),
    option_checks={"prompt": check_prompt},
    title="MindCube",
    media=MediaLayout("<data>/<images> (the release's paths under data/: other_all_image/...)"),
    subsets=(
        Subset(
            "tiny",
            "MindCube-Tiny: the 1,050-question MindCube_tinybench.jsonl",
            tiny_only,
            label="MindCube-Tiny",
        ),
    ),
)

__all__ = [
    "IN_OVERALL",
    "SPEC",
    "MindCubeBuilder",
    "answer_tag_choice",
    "load_mindcube",
    "mindcube_table",
    "official_choice",
    "prompt_text",
]
