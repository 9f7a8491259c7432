"""MMSI-Video-Bench: loader, frame settings, prompts, the official extractor and the paper's tables.

Modules: ``loader`` (``mmsivideo.json`` → items; folder layout), ``frames`` (Uniform-50 / Sufficient-Coverage,
proportional multi-video allocation, frame timestamps), ``options`` (lettered options in the user prompt),
``prompt`` (input text and interleaved request), ``extraction`` (official general extractor), ``breakdown``
(Tables 2, 3, 6 and difficulty levels). Registered as benchmark ``mmsi-video`` with extraction modes
``official`` (the paper's extractor, registered as ``mmsi-video-official``) and ``robust``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from spatialbench.benchmarks.mmsi_video.breakdown import SUBTYPES, canonical_type, mmsi_tables
from spatialbench.benchmarks.mmsi_video.extraction import extract_official
from spatialbench.benchmarks.mmsi_video.frames import FrameSetting, allocate_frames, frame_budget
from spatialbench.benchmarks.mmsi_video.loader import BENCHMARK_NAME, load_mmsi_video
from spatialbench.benchmarks.mmsi_video.prompt import (
    MMSIVideoBuilder,
    apply_setting,
    build_request,
    input_text,
)
from spatialbench.benchmarks.registry import BENCHMARKS, BenchmarkSpec
from spatialbench.records.item import Item
from spatialbench.scoring.breakdown import BREAKDOWNS, Table, micro_table, outcomes_from_rows
from spatialbench.scoring.extraction import CHOICE_EXTRACTORS, NO_ANSWER, Extraction
from spatialbench.scoring.tables import Column, ScoreTable

OFFICIAL_MODE = "mmsi-video-official"
TABLE2_COLUMNS = tuple(Column(official, label, (official,)) for official, label in SUBTYPES)


@CHOICE_EXTRACTORS.register(OFFICIAL_MODE)
def official_choice(text: str, options: Sequence[str] = ()) -> Extraction:
    """Read a letter with the official MMSI-Video-Bench general extractor (App. B); failures: no answer."""
    letter = extract_official(text)
    if letter is None:
        return Extraction(None, f"{NO_ANSWER}:official_general_extractor")
    return Extraction(letter, "mmsi-official")


def mmsi_video_table(rows: pd.DataFrame) -> ScoreTable:
    """Table 2 layout: the 13 subtypes in the paper's order; ``average`` is over their questions (Avg.)."""
    return micro_table(rows.assign(task=rows["task"].map(canonical_type)), TABLE2_COLUMNS)


@BREAKDOWNS.register(BENCHMARK_NAME)
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
    return mmsi_tables(outcomes_from_rows(items, rows), meta_dir, sub_bench, warnings)


#: answer budget. The paper (Sec. 4.1, App. B) gives none; the official API client asks for
#: ``max_token_length * 10`` = 10,000 tokens (utils/openai_api.py ``mimic_chat_budget``; open models
#: get 88,096).
MAX_NEW_TOKENS = 10_000
#: the setting of a run that names none: Uniform-50, the paper's main track (Sec. 4.1, Tables 3 and 5)
DEFAULT_SETTING = "uniform-50"

BENCHMARKS.add(
    BENCHMARK_NAME,
    BenchmarkSpec(
        name=BENCHMARK_NAME,
        load=load_mmsi_video,
        table=mmsi_video_table,
        choice_modes=(OFFICIAL_MODE, "robust"),
        number_modes=(),
        extract_aliases={"official": (OFFICIAL_MODE, "official")},
        description="MMSI-Video-Bench: 1,106 human-written multiple-choice questions over 1-N videos",
        default_frames="all",  # the setting has already chosen each video's frames (frames.apply_setting)
        max_new_tokens=MAX_NEW_TOKENS,
        run_options={"setting": DEFAULT_SETTING},
        frame_options=("setting",),
    ),
)

__all__ = [
    "FrameSetting",
    "allocate_frames",
    "build_request",
    "extract_official",
    "frame_budget",
    "input_text",
    "load_mmsi_video",
    "mmsi_video_breakdowns",
    "mmsi_video_table",
    "apply_setting",
    "MMSIVideoBuilder",
]
