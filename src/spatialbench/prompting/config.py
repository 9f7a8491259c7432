"""Prompt settings of a run (frozen; recorded with the run and part of every request key)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class ModelFamily(StrEnum):
    """Selects the post-prompts of VSI-Bench Table 9."""

    OPEN = "open"
    PROPRIETARY = "proprietary"


class InputOrder(StrEnum):
    """Video before the question (default, VSI-Bench App. C.1) or after it (App. D, Table 7a)."""

    VIDEO_FIRST = "video_first"
    QUESTION_FIRST = "question_first"


class PromptConfig(BaseModel):
    """How a benchmark's prompt builder lays out a request.

    Attributes:
        model_family: open-source or proprietary post-prompts (VSI-Bench Table 9); None = open, unless
            the runner resolves it from the model name first.
        order: video first or question first (App. D).
        video_repeats: times the video is shown; 2 gives ``[video][context][video]`` (App. D, Table 7b).
        blind: vision disabled — no image parts at all (App. D / Table 12 "Vision Disabled").
        overrides: template fields replaced by the user, e.g. ``{"pre_prompt": "..."}`` or
            ``{"post_prompt.numerical": "..."}``; keys a builder does not know raise.
    """

    model_config = ConfigDict(frozen=True)

    model_family: ModelFamily | None = None
    order: InputOrder = InputOrder.VIDEO_FIRST
    video_repeats: int = Field(default=1, ge=1, le=8)
    blind: bool = False
    overrides: dict[str, str] = Field(default_factory=dict)
