"""Appearance order (VSI-Bench App. B.1, Table 3): which categories appear first in the video.

"First appearance is considered to be the timestamp where the number of object pixels cross a set
threshold, and timestamps too close together are considered ambiguous." The paper gives neither number;
ours are in :class:`AppearanceSettings`. Crossing the threshold alone is not enough: a lamp whose first
pixels show at 13.00 s and a clock at 13.04 s are not in a clear order even when they reach 1,000 px a
second apart, so when the scene also records the first non-empty masks (``first_pixel``), the gap is
required there too (and the two orders must agree).

Two steps: :func:`first_appearances` turns rendered per-frame instance masks into {category: seconds};
the registered generator turns that timeline (stored in a synthetic scene's meta-info entry as
``first_appearance``) into questions. As in every official question, the categories are listed in a
random order that is not the answer, and that order is also one of the wrong options.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from spatialbench.generate.vsi.base import Candidate, TaskGenerator, TaskResult
from spatialbench.generate.vsi.seeding import derived_rng
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.prompting.templates import fill, read_json
from spatialbench.records.item import AnswerKind
from spatialbench.scene.model import Scene

TASK = "obj_appearance_order"
EXTRA_KEY = "first_appearance"  # meta-info field: {category: seconds of first appearance}
FIRST_PIXEL_KEY = "first_pixel"  # meta-info field: {category: seconds of its first non-empty mask}


def template() -> Mapping[str, str]:
    """Return the official wording (``data/appearance_order.json``, read once: question, separator)."""
    data: Mapping[str, str] = read_json(__package__, "data/appearance_order.json")
    return data


@dataclass(frozen=True)
class AppearanceSettings:
    """Thresholds of the appearance-order task (ours; the paper names the rules, not the values).

    Attributes:
        min_pixels: a category has appeared in a frame once its visible pixels (all instances together)
            reach this count (1,000 px is 0.33 % of a 640x480 frame, about a 32x32 patch).
        min_gap_s: a question is ambiguous when two of its categories first appear less than this many
            seconds apart, at ``min_pixels`` or (when known) at their first non-empty masks.
        n_categories: categories per question (4 in every official question).
        n_options: options per question (4 in every official question).
    """

    min_pixels: int = 1000
    min_gap_s: float = 1.0
    n_categories: int = 4
    n_options: int = 4


def category_pixel_counts(
    masks: Iterable[NDArray[np.integer]], id_to_category: Mapping[int, str]
) -> tuple[list[str], NDArray[np.int64]]:
    """Visible pixels of each category in each frame.

    Args:
        masks: per-frame (H, W) integer instance-id images; ids absent from ``id_to_category``
            (background, walls) are ignored.
        id_to_category: instance id -> category.

    Returns:
        (categories sorted by name, (F, C) pixel counts, F frames x C categories).
    """
    categories = sorted(set(id_to_category.values()))
    column = {c: i for i, c in enumerate(categories)}
    max_id = max(id_to_category, default=0)
    lut = np.full(max_id + 2, len(categories), dtype=np.int64)  # last bin collects unknown ids
    for inst, cat in id_to_category.items():
        lut[inst] = column[cat]
    rows = []
    for mask in masks:
        ids = np.minimum(np.asarray(mask, dtype=np.int64).ravel(), max_id + 1)
        ids[ids < 0] = max_id + 1
        rows.append(np.bincount(lut[ids], minlength=len(categories) + 1)[: len(categories)])
    counts = np.array(rows, dtype=np.int64).reshape(len(rows), len(categories))
    return categories, counts


def first_appearances(
    categories: Sequence[str], counts: NDArray[np.int64], timestamps: Sequence[float], min_pixels: int
) -> dict[str, float]:
    """Seconds of each category's first frame with at least ``min_pixels`` visible pixels.

    Args:
        categories: column names of ``counts``.
        counts: (F, C) pixel counts from :func:`category_pixel_counts`.
        timestamps: F frame times, seconds, increasing.
        min_pixels: the threshold.

    Returns:
        {category: seconds}, in order of first appearance; categories that never reach the threshold are
        left out.

    Raises:
        ValueError: ``timestamps`` and ``counts`` disagree on the number of frames.
    """
    if len(timestamps) != counts.shape[0]:
        raise ValueError(f"{len(timestamps)} timestamps for {counts.shape[0]} frames of masks")
    seen = counts >= min_pixels
    first = {
        c: float(timestamps[int(np.argmax(seen[:, i]))]) for i, c in enumerate(categories) if seen[:, i].any()
    }
    return dict(sorted(first.items(), key=lambda kv: (kv[1], kv[0])))


def _too_close(
    truth: Sequence[str],
    first: Mapping[str, float],
    first_pixel: Mapping[str, float] | None,
    settings: AppearanceSettings,
) -> str | None:
    """Return the removal rule an answer order breaks (two first appearances too close), or None."""
    if min(np.diff([first[c] for c in truth])) < settings.min_gap_s:
        return "first appearances too close"
    # Differences in the answer order: a negative one means the first pixels come in another order.
    if first_pixel and min(np.diff([first_pixel.get(c, first[c]) for c in truth])) < settings.min_gap_s:
        return "first pixels too close"
    return None


def _option_texts(
    truth: tuple[str, ...], rng: np.random.Generator, settings: AppearanceSettings
) -> list[str]:
    """Return the answer order's text first, then ``n_options - 1`` other orders drawn at random."""
    wrong = [p for p in itertools.permutations(truth) if p != truth]
    picked = [wrong[int(i)] for i in rng.choice(len(wrong), size=settings.n_options - 1, replace=False)]
    return [template()["separator"].join(order) for order in (truth, *picked)]


def appearance_candidates(
    first: Mapping[str, float],
    scene_id: str,
    dataset: str,
    rng: np.random.Generator,
    settings: AppearanceSettings | None = None,
    first_pixel: Mapping[str, float] | None = None,
) -> TaskResult:
    """Every unambiguous appearance-order question over combinations of the appeared categories.

    Args:
        first: {category: seconds of first appearance} (from :func:`first_appearances`).
        scene_id: the scene the questions are about.
        dataset: its source dataset.
        rng: draws the listed order and the wrong options.
        settings: thresholds (defaults: :class:`AppearanceSettings`).
        first_pixel: {category: seconds of its first non-empty mask}, when known; then the answer order
            must also hold there with gaps of at least ``min_gap_s``.

    Returns:
        Candidates in combination order (categories sorted by name), and the count of combinations
        removed because two first appearances are closer than ``min_gap_s`` (at the threshold, or at the
        first non-empty masks).
    """
    settings = settings or AppearanceSettings()
    result = TaskResult()
    for combo in itertools.combinations(sorted(first), settings.n_categories):
        truth = tuple(sorted(combo, key=lambda c: (first[c], c)))
        rule = _too_close(truth, first, first_pixel, settings)
        if rule is not None:
            result.removed[rule] += 1
            continue
        texts = _option_texts(truth, rng, settings)
        result.candidates.append(
            Candidate(
                task=TASK,
                scene_id=scene_id,
                dataset=dataset,
                # The listed order is the first wrong option, as in every official question.
                question=fill(template()["question"], {"categories": texts[1]}),
                answer=texts[0],
                choices=tuple(texts),
                metadata={"first_appearance_s": {c: first[c] for c in truth}},
            )
        )
    return result


def generate_appearance_order(scene: Scene, settings: GenerationSettings) -> TaskResult:
    """Appearance-order candidates of a rendered scene (meta-info ``first_appearance``, ``first_pixel``).

    Scenes without that field (scans with no rendered masks) give no candidates, counted as removed.
    """
    first = scene.extra.get(EXTRA_KEY)
    if not first:
        result = TaskResult()
        result.removed["no rendered appearance data"] += 1
        return result
    rng = derived_rng(settings.seed, TASK, scene.scene_id, "candidates")
    first_pixel = {str(k): float(v) for k, v in (scene.extra.get(FIRST_PIXEL_KEY) or {}).items()}
    return appearance_candidates(
        {str(k): float(v) for k, v in first.items()}, scene.scene_id, scene.dataset, rng, None, first_pixel
    )


GENERATOR = TaskGenerator(TASK, AnswerKind.MULTIPLE_CHOICE, generate_appearance_order)
