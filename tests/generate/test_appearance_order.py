"""Appearance order from rendered instance masks (VSI-Bench App. B.1)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from spatialbench.generate.vsi.appearance_order import (
    TASK,
    AppearanceSettings,
    appearance_candidates,
    category_pixel_counts,
    first_appearances,
    generate_appearance_order,
    template,
)
from spatialbench.generate.vsi.base import TASK_GENERATORS
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.scene.model import Scene

FPS = 2.0
ID_TO_CATEGORY = {1: "chair", 2: "chair", 3: "table", 4: "sofa", 5: "tv", 6: "bed"}
# (frame, instance id, pixels): when each instance shows up; it stays visible afterwards.
SHOWINGS = [(1, 2, 200), (3, 5, 400), (6, 4, 700), (8, 3, 150), (2, 6, 10), (9, 6, 300)]


def render_masks(n_frames: int = 12) -> list[np.ndarray]:
    """60x80 instance-id masks; each instance paints a block of its pixel count once shown (0 = wall)."""
    masks = []
    for frame in range(n_frames):
        mask = np.zeros((60, 80), np.int32)
        for slot, inst in enumerate(sorted({i for _, i, _ in SHOWINGS})):
            shown = [p for s, i, p in SHOWINGS if i == inst and s <= frame]
            if shown:
                mask.reshape(-1)[slot * 800 : slot * 800 + shown[-1]] = inst
        masks.append(mask)
    return masks


def timeline(min_pixels: int) -> dict[str, float]:
    masks = render_masks()
    categories, counts = category_pixel_counts(masks, ID_TO_CATEGORY)
    return first_appearances(categories, counts, [i / FPS for i in range(len(masks))], min_pixels)


def test_pixel_counts_sum_instances_of_a_category() -> None:
    categories, counts = category_pixel_counts(render_masks(), ID_TO_CATEGORY)
    assert categories == ["bed", "chair", "sofa", "table", "tv"]
    assert counts[0].tolist() == [0, 0, 0, 0, 0]
    assert counts[9].tolist() == [300, 200, 700, 150, 400]


def test_threshold_decides_first_appearance() -> None:
    # The bed shows 10 px at frame 2 and 300 px from frame 9.
    assert timeline(min_pixels=100) == {"chair": 0.5, "tv": 1.5, "sofa": 3.0, "table": 4.0, "bed": 4.5}
    assert timeline(min_pixels=1)["bed"] == 1.0
    assert "table" not in timeline(min_pixels=200)  # 150 px never reaches 200


def first_nonempty_order(categories: list[str]) -> list[str]:
    """Order in which the categories' masks first become non-empty (independent of the module)."""
    masks = render_masks()
    ids = {c: [i for i, cat in ID_TO_CATEGORY.items() if cat == c] for c in categories}
    first = {c: next(f for f, m in enumerate(masks) if np.isin(m, ids[c]).any()) for c in categories}
    return sorted(categories, key=lambda c: first[c])


def test_ground_truth_is_order_of_first_nonempty_masks() -> None:
    # First appearances at 0.5 (chair), 1.0 (bed), 1.5 (tv), 3.0 (sofa), 4.0 s (table): 0.5 s apart or more.
    settings = AppearanceSettings(min_gap_s=0.5)
    result = appearance_candidates(
        timeline(min_pixels=1), "s1", "synthetic", np.random.default_rng(0), settings
    )
    assert len(result.candidates) == 5 and not result.removed
    for cand in result.candidates:
        listed = re.fullmatch(
            r"What will be the first-time appearance order of the following categories in the video: (.+)\?",
            cand.question,
        )
        assert listed is not None
        assert cand.answer.split(", ") == first_nonempty_order(listed.group(1).split(", "))
        assert listed.group(1) in cand.choices and listed.group(1) != cand.answer
        assert len(set(cand.choices)) == 4 and cand.answer in cand.choices


def test_close_first_appearances_are_ambiguous() -> None:
    # Table (4.0 s) and bed (4.5 s) are 0.5 s apart: the 3 of 5 combinations holding both are removed.
    result = appearance_candidates(timeline(min_pixels=100), "s1", "synthetic", np.random.default_rng(0))
    assert result.removed["first appearances too close"] == 3
    assert sorted(c.answer for c in result.candidates) == ["chair, tv, sofa, bed", "chair, tv, sofa, table"]
    strict = AppearanceSettings(min_gap_s=1.6)  # chair-tv 1.0 s apart now too close as well
    assert (
        appearance_candidates(timeline(100), "s1", "synthetic", np.random.default_rng(0), strict).candidates
        == []
    )


def scene(extra: dict[str, object]) -> Scene:
    return Scene("s1", "synthetic", 12.0, np.zeros(3), {}, {}, extra=extra)


def test_registered_generator_reads_scene_timeline() -> None:
    assert TASK_GENERATORS.get(TASK).function is generate_appearance_order
    settings = GenerationSettings(seed=3)
    result = generate_appearance_order(scene({"first_appearance": timeline(100)}), settings)
    assert len(result.candidates) == 2
    again = generate_appearance_order(scene({"first_appearance": timeline(100)}), settings)
    assert [c.question for c in again.candidates] == [c.question for c in result.candidates]
    empty = generate_appearance_order(scene({}), settings)
    assert empty.candidates == [] and empty.removed["no rendered appearance data"] == 1


def test_wording_matches_every_official_question(shared_data: Path) -> None:
    path = shared_data / "vsibench" / "official_samples" / "subset_300.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    official = [r for r in rows if r["question_type"] == TASK]
    assert len(official) == 30
    for row in official:
        listed = row["question"].split(": ", 1)[1].rstrip("?")
        assert template()["question"].format(categories=listed) == row["question"]
        # As our generator does: the listed order is a wrong option.
        texts = [o[3:] for o in row["options"]]
        assert listed in texts and texts.index(listed) != "ABCD".index(row["ground_truth"])
