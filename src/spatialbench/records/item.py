"""The benchmark item: one question of any benchmark, in one typed record.

Field names follow the official files (``question_type`` is ``task``; ``ground_truth``; ``options``;
``scene_name`` is ``scene_id``; ``dataset``).
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class AnswerKind(str, Enum):
    """How an item is answered and scored (VSI-Bench Sec. 3.1: MCA vs NA)."""

    MULTIPLE_CHOICE = "multiple_choice"  # scored by exact-match accuracy
    NUMERICAL = "numerical"  # scored by MRA (VSI-Bench) on a positive float ground truth


class MediaKind(str, Enum):
    """What a media reference points at."""

    VIDEO = "video"  # a video file; frames are sampled by the runner
    FRAMES = "frames"  # an ordered list of frame files (MMSI-Video-Bench annotation frames)
    IMAGE = "image"  # a single still image (reference image, multi-view frame)


class MediaRef(BaseModel):
    """A reference to media an item shows the model.

    Attributes:
        kind: video, frame list or single image.
        path: file path (video or image), relative to the benchmark's data root unless absolute.
            For ``FRAMES`` it is the folder and ``frames`` lists the files.
        frames: frame file names for ``FRAMES`` media, in temporal order.
        timestamps: seconds from the video start, one per entry of ``frames`` when known.
        start, end: the segment of a video to use, in seconds (None = whole video).
        name: the label a prompt may use for this media (e.g. a ReMindView frame name).
    """

    model_config = ConfigDict(frozen=True)

    kind: MediaKind
    path: str
    frames: tuple[str, ...] = ()
    timestamps: tuple[float, ...] = ()
    start: float | None = None
    end: float | None = None
    name: str | None = None


class Item(BaseModel):
    """One benchmark question.

    Attributes:
        id: unique within the benchmark (official id when the source has one).
        benchmark: registered benchmark name, e.g. ``"vsibench"``.
        task: the official question type, e.g. ``"object_rel_direction_hard"``.
        question: question text as the source writes it (without options).
        options: choices as shown to the model, already lettered (``"A. sofa"``); empty for NA items.
        ground_truth: the letter for multiple choice, the number as text for numerical items
            (the official files store e.g. ``"2.3"``), kept as the source writes it.
        answer_kind: multiple choice or numerical.
        media: media shown to the model, in order.
        scene_id: the scene (``scene_name``) the question is about.
        dataset: source dataset of the scene (``arkitscenes``, ``scannet``, ``scannetpp``, ``synthetic``...).
        metadata: free extra fields (``pruned``, difficulty level, sub-benchmark, ...).
    """

    model_config = ConfigDict(frozen=True)

    id: str
    benchmark: str
    task: str
    question: str
    options: tuple[str, ...] = ()
    ground_truth: str
    answer_kind: AnswerKind
    media: tuple[MediaRef, ...] = ()
    scene_id: str | None = None
    dataset: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @property
    def option_letters(self) -> tuple[str, ...]:
        """Letters of the options in order (``("A", "B", ...)``), empty for numerical items."""
        return tuple(chr(ord("A") + i) for i in range(len(self.options)))
