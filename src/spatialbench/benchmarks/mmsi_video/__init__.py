"""MMSI-Video-Bench: format, loader, frame settings, prompts, the official extractor and the paper's tables.

Modules: ``format`` (samples ⇄ items), ``loader`` (``mmsivideo.json`` → items; folder layout), ``frames``
(Uniform-50 / Sufficient-Coverage, proportional multi-video allocation, frame timestamps), ``options``
(lettered options in the user prompt), ``prompt`` (input text and interleaved request), ``extraction``
(official general extractor), ``breakdown`` (Tables 2, 3, 6 and difficulty levels; ``-B sub_bench=NAME``
for one sub-benchmark); ``error_taxonomy.json`` (Sec. 6.1). ``SPEC`` is benchmark ``mmsi-video``,
extraction modes ``official`` (the paper's extractor) and ``robust`` (default).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from spatialbench.benchmarks.mmsi_video.breakdown import (
    MAIN_CATEGORIES,
    SUB_BENCHMARKS,
    TABLE2_GROUPS,
    TYPE_ALIASES,
    mmsi_tables,
    registered_table,
)
from spatialbench.benchmarks.mmsi_video.extraction import extract_official, official_choice
from spatialbench.benchmarks.mmsi_video.format import BENCHMARK_NAME, item_to_sample, write_items
from spatialbench.benchmarks.mmsi_video.frames import (
    FrameSetting,
    allocate_frames,
    frame_budget,
    question_setting,
)
from spatialbench.benchmarks.mmsi_video.loader import load_mmsi_video
from spatialbench.benchmarks.mmsi_video.prompt import (
    MMSIVideoBuilder,
    apply_setting,
    build_request,
    input_text,
)
from spatialbench.benchmarks.spec import (
    BenchmarkSpec,
    BreakdownOption,
    ErrorTaxonomy,
    MediaLayout,
    RunDefaults,
)
from spatialbench.records.item import Item
from spatialbench.scoring.grouped import Table, with_items
from spatialbench.scoring.rules import STANDARD_MODES, Extractors, ScoringRules


def mmsi_video_breakdowns(
    items: Sequence[Item],
    rows: pd.DataFrame,
    *,
    sub_bench: str | None = None,
    data_dir: Path | str | None = None,
    warnings: list[str] | None = None,
) -> list[Table]:
    """Tables 2 and 3 (+ difficulty levels), or one sub-benchmark, with random-guess baselines.

    ``data_dir`` is the downloaded folder; its ``meta_data/`` holds the official id lists. ``warnings``
    collects lines about tables left out and items outside Table 2.
    """
    meta_dir = Path(data_dir) / "meta_data" if data_dir is not None else None
    return mmsi_tables(with_items(rows, items), meta_dir, sub_bench, warnings)


#: answer budget. The paper (Sec. 4.1, App. B) gives none; the official API client asks for
#: ``max_token_length * 10`` = 10,000 tokens (utils/openai_api.py ``mimic_chat_budget``; open models
#: get 88,096).
MAX_NEW_TOKENS = 10_000
#: the setting of a run that names none: Uniform-50, the paper's main track (Sec. 4.1, Tables 3 and 5)
DEFAULT_SETTING = "uniform-50"
#: ``-B sub_bench=NAME``: one sub-benchmark's table (Sec. 8, Table 6) or the difficulty levels
SUB_BENCH = BreakdownOption(
    "sub_bench",
    tuple(SUB_BENCHMARKS),
    help="one sub-benchmark's table (id lists from <data>/meta_data)",
    label="MMSI-Video-Bench sub-benchmark",
)

SPEC = BenchmarkSpec(
    name=BENCHMARK_NAME,
    description="MMSI-Video-Bench: 1,106 human-written multiple-choice questions over 1-N videos",
    load=load_mmsi_video,
    prompt_builder=MMSIVideoBuilder,
    scoring=ScoringRules(
        name=BENCHMARK_NAME,
        table=registered_table,
        modes={
            "official": Extractors(official_choice, STANDARD_MODES["official"].number),
            "robust": STANDARD_MODES["robust"],
        },
        column_groups=TABLE2_GROUPS,
    ),
    breakdowns=mmsi_video_breakdowns,
    defaults=RunDefaults(
        frames="all",  # the setting has already chosen each video's frames (frames.apply_setting)
        max_new_tokens=MAX_NEW_TOKENS,
        options={"setting": DEFAULT_SETTING},
        frame_options=("setting",),
        question_frames=question_setting,  # consecutive:N@S: one local segment per question (Fig. 5)
    ),
    option_checks={"setting": frame_budget},
    title="MMSI-Video-Bench",
    protocols=("Uniform-50", "Sufficient-Coverage"),  # Table 2 reports the two settings apart
    media=MediaLayout(
        "<data>/frames/... and <data>/ref_images/... (the unzipped frames.zip, ref_images.zip)"
    ),
    breakdown_options=(SUB_BENCH,),
    # Sec. 6.1: "non-overlapping" types; Sec. 6.2 / Fig. 7: sampled and shown by the main categories
    error_taxonomy=ErrorTaxonomy(
        "mmsi-video", __name__, columns=(*MAIN_CATEGORIES, ("CV.", tuple(TYPE_ALIASES))), single_cause=True
    ),
    write=write_items,
)

__all__ = [
    "SPEC",
    "FrameSetting",
    "allocate_frames",
    "build_request",
    "extract_official",
    "frame_budget",
    "input_text",
    "item_to_sample",
    "load_mmsi_video",
    "mmsi_video_breakdowns",
    "apply_setting",
    "MMSIVideoBuilder",
]
