"""Requests → chat-template messages plus the pixel inputs for a Hugging Face processor.

Two ways to hand frames to a model (``FramesAs``):

- ``images`` (default, no torchvision): every image part is one ``{"type": "image"}`` item, its label a
  text item just before it;
- ``video``: each run of consecutive image parts in a turn is one ``{"type": "video"}`` item whose frames
  go to the model's video processor (Qwen's pairwise temporal merge, LLaVA-OneVision's video pooling),
  as the official VSI-Bench evaluation of open models does. Needs torchvision. Frames of a run must share
  one size, and per-frame labels cannot be placed inside a video, so a labelled frame is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.models.errors import BackendError
from spatialbench.models.parts import map_parts
from spatialbench.records.messages import ImagePart, Part, Request, TextPart


class FramesAs(StrEnum):
    """How image parts reach a local model."""

    IMAGES = "images"
    VIDEO = "video"


@dataclass
class ChatInputs:
    """Messages for ``apply_chat_template`` and the pixels in the order their items appear.

    Attributes:
        images: each (H, W, 3) uint8.
        videos: each (T, H, W, 3) uint8, T >= 1.
    """

    messages: list[dict[str, Any]] = field(default_factory=list)
    images: list[NDArray[np.uint8]] = field(default_factory=list)
    videos: list[NDArray[np.uint8]] = field(default_factory=list)


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _image_content(parts: tuple[Part, ...], out: ChatInputs) -> list[dict[str, Any]]:
    def image(part: ImagePart) -> dict[str, Any]:
        out.images.append(part.pixels)
        return {"type": "image"}

    return map_parts(parts, _text, image)


def _video_content(parts: tuple[Part, ...], out: ChatInputs) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    run: list[NDArray[np.uint8]] = []

    def flush() -> None:
        if not run:
            return
        if len({frame.shape for frame in run}) > 1:
            raise BackendError(
                f"frames_as=video: frames of one video differ in size {sorted({f.shape for f in run})}"
            )
        items.append({"type": "video"})
        out.videos.append(np.stack(run))
        run.clear()

    for part in parts:
        if isinstance(part, TextPart):
            flush()
            items.append(_text(part.text))
        elif part.label:
            raise BackendError(f"frames_as=video cannot place the frame label {part.label!r} inside a video")
        else:
            run.append(part.pixels)
    flush()
    return items


def chat_inputs(request: Request, frames_as: FramesAs = FramesAs.IMAGES) -> ChatInputs:
    """Messages (system first, then history turns, then the user turn) and their pixels.

    Raises:
        BackendError: ``video`` mode with a labelled frame or frames of different sizes in one run.
    """
    out = ChatInputs()
    content = _video_content if frames_as is FramesAs.VIDEO else _image_content
    if request.system:
        out.messages.append({"role": "system", "content": [_text(request.system)]})
    for role, parts in request.turns:
        out.messages.append({"role": role, "content": content(parts, out)})
    return out
