"""VSI-SUPER (Cambrian-S, Yang et al. 2025, arXiv 2511.04670): Recall and Count over long videos.

Modules: ``loader`` (release tables → items), ``streaming`` (streaming Count: a count per query time, every
expected one scored). Three benchmarks: ``vsi-super-recall`` (multiple choice, accuracy per video duration;
``SPEC_RECALL``), ``vsi-super-count`` (a count, MRA per duration; ``SPEC_COUNT``) and
``vsi-super-count-streaming`` (a count per query time, the mean MRA over every expected count, a missing
one 0; ``SPEC_STREAMING``). Each sends the sampled frames, then lmms-eval's ``vsisuper`` text: Count
"These are frames of a video.", the question and "Please answer the question using a single word or
phrase." (VSI-Bench's layout); Recall the question, ``Options:``, the release's options as written and
"Answer with the option's letter from the given choices directly." (:class:`RecallBuilder`, no frames
line). The robust reader is the default, so "The answer is B." reads B.
"""

from __future__ import annotations

import pandas as pd

from spatialbench.benchmarks.shared.choice import column_table
from spatialbench.benchmarks.spec import BenchmarkSpec, MediaLayout
from spatialbench.benchmarks.vsi_super.loader import (
    COUNT,
    DURATIONS,
    RECALL,
    STREAMING,
    load_count,
    load_recall,
    load_streaming,
)
from spatialbench.benchmarks.vsi_super.streaming import (
    read_counts,
    score_streaming,
    streaming_score,
    streaming_scores,
)
from spatialbench.benchmarks.vsibench.prompt import VideoQABuilder
from spatialbench.records.item import Item
from spatialbench.scoring.grouped import Table
from spatialbench.scoring.rules import STANDARD_MODES, ScoringRules


def duration_table(rows: pd.DataFrame) -> Table:
    """One column per video duration (10mins ... 240mins), Avg. over all questions (Cambrian-S Table 1).

    ``rows``: scored rows, the duration in ``dataset``; Recall scores are 0/1, Count scores MRA.
    """
    return column_table(rows, "dataset", DURATIONS)


class RecallBuilder(VideoQABuilder):
    """lmms-eval's Recall request (``vsr_utils.doc_to_text``), after the frames.

    The question, ``Options:``, the release's options as written (``metadata["option_lines"]``) and the
    letter post-prompt; no "These are frames of a video." line.
    """

    package = __name__
    template = "recall_prompt.json"

    def text(self, item: Item, post_prompt: bool = True) -> str:
        """Return the question block with the options as the release writes them (``recall_prompt.json``)."""
        lines = item.metadata.get("option_lines")
        shown = item.model_copy(update={"options": tuple(lines)}) if lines else item
        return super().text(shown, post_prompt)


_MEDIA = MediaLayout("<data>/<video_path> (video_path as released, e.g. videos/x.mp4, relative to the table)")

SPEC_RECALL = BenchmarkSpec(
    name=RECALL,
    description="VSI-SUPER-Recall (Cambrian-S): recall objects in 10-240 min videos, accuracy per duration",
    load=load_recall,
    prompt_builder=RecallBuilder,
    scoring=ScoringRules(name=RECALL, table=duration_table, modes=STANDARD_MODES),
    title="VSI-SUPER-Recall",
    media=_MEDIA,
)

SPEC_COUNT = BenchmarkSpec(
    name=COUNT,
    description="VSI-SUPER-Count (Cambrian-S): count objects across 10-240 min videos, MRA per duration",
    load=load_count,
    prompt_builder=VideoQABuilder,
    scoring=ScoringRules(name=COUNT, table=duration_table, modes=STANDARD_MODES),
    title="VSI-SUPER-Count",
    media=_MEDIA,
)

SPEC_STREAMING = BenchmarkSpec(
    name=STREAMING,
    description="VSI-SUPER-Count streaming (Cambrian-S): a count per query time, every one scored by MRA",
    load=load_streaming,
    prompt_builder=VideoQABuilder,
    scoring=ScoringRules(name=STREAMING, table=duration_table, modes=STANDARD_MODES,
                         score_response=score_streaming),
    title="VSI-SUPER-Count (streaming)",
    media=_MEDIA,
)

__all__ = [
    "DURATIONS",
    "SPEC_COUNT",
    "SPEC_RECALL",
    "SPEC_STREAMING",
    "duration_table",
    "load_count",
    "load_recall",
    "load_streaming",
    "read_counts",
    "score_streaming",
    "streaming_score",
    "streaming_scores",
]
