"""3DSRBench: 2,772 3D spatial reasoning questions on natural images (Ma et al. 2024, arXiv 2412.07825).

Modules: ``loader`` (the release's VLMEvalKit TSV files or Parquet → items, one per variant). ``SPEC`` is
benchmark ``3dsrbench``: the image, then VLMEvalKit's default multiple-choice prompt (``Question:``,
``Options:``, ``Please select the correct answer from the options above.``), read by VLMEvalKit's
``can_infer`` (:mod:`~spatialbench.benchmarks.shared.kit_mcq`).

Each question comes as variants: its options rotated (CircularEval, ``qid-N``) and its image flipped with
the answer changed to match (FlipEval, ``qid-flip``, ``qid-flip-N``). A setting groups the variants and
counts a group right only when all its variants are (VLMEvalKit ``_3DSRBench.evaluate``, which follows the
release's script): ``vanilla`` every variant alone; ``flip`` a variant with its flipped twin (``-flip``
removed); ``circular`` the rotations of the image (``qid[:8]``, or ``qid[:13]`` for flipped ones);
``flip-circular`` every variant of the question (``qid[:8]``), the release's final figure. The table is
flip-circular accuracy per main type (height, location, orientation, multi-object), Avg. over all
questions; the breakdowns give each setting per type and flip-circular per question type.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from spatialbench.benchmarks.shared.choice import images_then_text
from spatialbench.benchmarks.shared.kit_mcq import kit_choice, kit_prompt
from spatialbench.benchmarks.shared.variants import all_variants_right
from spatialbench.benchmarks.spec import BenchmarkSpec, MediaLayout, RunDefaults
from spatialbench.benchmarks.threedsr.loader import BENCHMARK_NAME, TYPES, load_3dsrbench
from spatialbench.scoring.grouped import Group, Table, grouped
from spatialbench.scoring.rules import STANDARD_MODES, Extractors, ScoringRules

LABELS = {
    "height": "Height",
    "location": "Location",
    "orientation": "Orientation",
    "multi_object": "Multi-Object",
}
SETTINGS: dict[str, Callable[[str], str]] = {
    "vanilla": lambda qid: qid,
    "flip": lambda qid: qid.replace("-flip", ""),
    "circular": lambda qid: qid[:13] if "-flip" in qid else qid[:8],
    "flip-circular": lambda qid: qid[:8],
}


def setting_table(rows: pd.DataFrame, setting: str = "flip-circular", title: str = "") -> Table:
    """Accuracy per main type over the groups of ``setting`` (``SETTINGS``); Avg. over all groups."""
    folded = all_variants_right(rows, SETTINGS[setting])
    groups = [Group.of(LABELS[kind], kind, task=categories) for kind, categories in TYPES.items()]
    return grouped(folded, groups, weighting="questions", title=title)


def threedsr_table(rows: pd.DataFrame) -> Table:
    """Flip-circular accuracy per main type, Avg. over all questions (the release's final figure)."""
    return setting_table(rows)


def threedsr_breakdowns(
    items: Sequence[object], rows: pd.DataFrame, *, data_dir: Path | str | None = None
) -> list[Table]:
    """Each setting's accuracy per main type, then flip-circular accuracy per question type."""
    tables = [setting_table(rows, name, f"3DSRBench: {name}") for name in SETTINGS]
    folded = all_variants_right(rows, SETTINGS["flip-circular"])
    categories = [c for members in TYPES.values() for c in members if c in set(folded["task"])]
    by_type = grouped(
        folded, [Group.of(c, task=c) for c in categories], title="3DSRBench: flip-circular per question type"
    )
    return [*tables, by_type]


ThreeDSRBuilder = images_then_text(kit_prompt, "ThreeDSRBuilder")

SPEC = BenchmarkSpec(
    name=BENCHMARK_NAME,
    description="3DSRBench: height/location/orientation/multi-object 3D reasoning, flip + circular eval",
    load=load_3dsrbench,
    prompt_builder=ThreeDSRBuilder,
    scoring=ScoringRules(
        name=BENCHMARK_NAME,
        table=threedsr_table,
        modes={
            "official": Extractors(kit_choice, STANDARD_MODES["official"].number),
            "robust": STANDARD_MODES["robust"],
        },
        default_mode="official",
    ),
    breakdowns=threedsr_breakdowns,
    defaults=RunDefaults(frames="all"),
    title="3DSRBench",
    media=MediaLayout(
        "images inside 3dsrbench_v1_vlmevalkit*.tsv / .parquet, written to <data>/images/<stem>/"
    ),
)

__all__ = ["SETTINGS", "SPEC", "ThreeDSRBuilder", "load_3dsrbench", "setting_table", "threedsr_table"]
