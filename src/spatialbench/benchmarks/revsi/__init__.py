"""ReVSI: VSI-Bench's tasks rebuilt per frame budget, each budget with its own ground truth.

Modules: ``loader`` (one budget's rows and videos → items). ``SPEC`` is benchmark ``revsi`` (loader option
``budget``: ``16``, ``32``, ..., ``all``, default ``all``): the sampled frames, then VLMEvalKit's ``ReVSI``
text (VSI-Bench's layout; numerical post-prompt "Answer the question using a single integer or decimal
number."); VSI-Bench's rules score it (``official``: the first token, exact match for letters, MRA with
``<=`` over θ = 0.50 ... 0.95 for numbers; ``robust`` the general readers). The table follows
``ReVSI.evaluate``: the sub-types of counting, room size, relative distance and relative direction are
averaged into one column each, and Avg. is the mean of the columns.
"""

from __future__ import annotations

import pandas as pd

from spatialbench.benchmarks.revsi.loader import BENCHMARK_NAME, load_revsi, subset_name
from spatialbench.benchmarks.spec import BenchmarkSpec, MediaLayout, RunDefaults
from spatialbench.benchmarks.vsibench.prompt import VideoQABuilder
from spatialbench.scoring.grouped import Group, Table, grouped
from spatialbench.scoring.rules import STANDARD_MODES, ColumnGroup, ScoringRules

COLUMNS = (
    Group.of("Obj. Count", "object_counting", task=("object_counting_single", "object_counting_multiple")),
    Group.of("Abs. Dist.", "object_abs_distance", task="object_abs_distance"),
    Group.of("Obj. Size", "object_size_estimation", task="object_size_estimation"),
    Group.of(
        "Room Size",
        "room_size_estimation",
        task=("room_size_estimation_single", "room_size_estimation_multiple"),
    ),
    Group.of(
        "Rel. Dist.",
        "object_rel_distance",
        task=("object_rel_distance_closest", "object_rel_distance_farthest"),
    ),
    Group.of(
        "Rel. Dir.",
        "object_rel_direction",
        task=(
            "object_rel_direction_forward_easy",
            "object_rel_direction_backward_easy",
            "object_rel_direction_forward_hard",
            "object_rel_direction_backward_hard",
        ),
    ),
    Group.of("Route Plan", "route_planning", task="route_planning"),
)

NUMERICAL = ("object_counting", "object_abs_distance", "object_size_estimation", "room_size_estimation")
COLUMN_GROUPS = (  # VSI-Bench's Fig. 6 header over the same columns (ReVSI has no appearance order)
    ColumnGroup("Numerical Answer", NUMERICAL),
    ColumnGroup("Multiple-Choice Answer", tuple(c.key for c in COLUMNS if c.key not in NUMERICAL)),
)


class ReVSIBuilder(VideoQABuilder):
    """VSI-Bench's video prompt with ReVSI's post-prompts (``revsi/prompt.json``)."""

    package = __name__


def revsi_table(rows: pd.DataFrame) -> Table:
    """Seven columns, each the mean of its sub-types' means; Avg. = mean of the columns (``evaluate``)."""
    return grouped(rows, COLUMNS, weighting="columns")


def check_budget(budget: object) -> None:
    """Refuse a budget that is not ``all`` or a whole number of frames (ValueError)."""
    subset_name(str(budget))


SPEC = BenchmarkSpec(
    name=BENCHMARK_NAME,
    description="ReVSI: VSI-Bench tasks rebuilt per frame budget (16 ... all), each its own ground truth",
    load=load_revsi,
    prompt_builder=ReVSIBuilder,
    scoring=ScoringRules(
        name=BENCHMARK_NAME,
        table=revsi_table,
        modes=STANDARD_MODES,
        default_mode="official",
        column_groups=COLUMN_GROUPS,
    ),
    # at most 128 frames: every frame of a budget's video (it holds the budget's frames), 128 of all_frame;
    # a budget's video is shorter than 128 frames by design: no "asks for more frames" warning for it
    defaults=RunDefaults(frames="uniform:128", frames_ceiling=True),
    option_checks={"budget": check_budget},
    title="ReVSI",
    media=MediaLayout("<data>/revsi_videos/<budget>_frame/<scene_id>.mp4"),
)

__all__ = ["COLUMNS", "COLUMN_GROUPS", "SPEC", "ReVSIBuilder", "load_revsi", "revsi_table"]
