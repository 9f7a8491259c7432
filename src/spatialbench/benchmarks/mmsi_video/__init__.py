"""MMSI-Video-Bench: loader, frame settings, prompts, the official extractor and the paper's tables.

Modules: ``loader`` (``mmsivideo.json`` → items; folder layout), ``frames`` (Uniform-50 / Sufficient-Coverage,
proportional multi-video allocation, frame timestamps), ``options`` (lettered options in the user prompt),
``prompt`` (input text and interleaved request), ``extraction`` (official general extractor), ``breakdown``
(Tables 2, 3, 6 and difficulty levels). ``SPEC`` is benchmark ``mmsi-video``, extraction modes ``official``
(the paper's extractor) and ``robust`` (default).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from spatialbench.benchmarks.mmsi_video.breakdown import mmsi_tables, registered_table
from spatialbench.benchmarks.mmsi_video.extraction import extract_official, official_choice
from spatialbench.benchmarks.mmsi_video.frames import FrameSetting, allocate_frames, frame_budget
from spatialbench.benchmarks.mmsi_video.loader import BENCHMARK_NAME, load_mmsi_video
from spatialbench.benchmarks.mmsi_video.prompt import (
    MMSIVideoBuilder,
    apply_setting,
    build_request,
    input_text,
)
from spatialbench.benchmarks.spec import BenchmarkSpec, RunDefaults
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
    ),
    breakdowns=mmsi_video_breakdowns,
    defaults=RunDefaults(
        frames="all",  # the setting has already chosen each video's frames (frames.apply_setting)
        max_new_tokens=MAX_NEW_TOKENS,
        options={"setting": DEFAULT_SETTING},
        frame_options=("setting",),
    ),
    option_checks={"setting": frame_budget},
)

__all__ = [
    "SPEC",
    "FrameSetting",
    "allocate_frames",
    "build_request",
    "extract_official",
    "frame_budget",
    "input_text",
    "load_mmsi_video",
    "mmsi_video_breakdowns",
    "apply_setting",
    "MMSIVideoBuilder",
]
