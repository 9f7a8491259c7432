"""The prompt builder base and the layout helpers every builder shares.

A builder turns an :class:`~spatialbench.records.item.Item` and its sampled media into a model
:class:`~spatialbench.records.messages.Request`. Each benchmark package names its builder in its
``BenchmarkSpec`` (``prompt_builder``); this package knows no benchmark.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from spatialbench.prompting.config import InputOrder, PromptConfig
from spatialbench.records.item import Item
from spatialbench.records.messages import ImagePart, Part, Request, TextPart


class Frames(Protocol):
    """What a builder reads of one media's sample (``spatialbench.media.video.SampledFrames`` is one)."""

    @property
    def pixels(self) -> Sequence[NDArray[np.uint8]]:
        """RGB frames, each (H, W, 3) uint8, in temporal order."""
        ...


F = TypeVar("F", bound=Frames)


class PromptBuilder(ABC):
    """Lays out one benchmark's requests.

    Subclasses set ``known_overrides`` (template fields a user may replace) and implement :meth:`build`.

    Raises:
        ValueError: at construction, an override key the builder does not know.
    """

    known_overrides: frozenset[str] = frozenset()

    def __init__(self, config: PromptConfig) -> None:
        unknown = set(config.overrides) - self.known_overrides
        if unknown:
            raise ValueError(
                f"{type(self).__name__} has no prompt field(s) {sorted(unknown)}; "
                f"known: {sorted(self.known_overrides)}"
            )
        self.config = config

    @abstractmethod
    def build(self, item: Item, media: Sequence[Any]) -> Request:
        """Build the request for ``item`` from its sampled media (one :class:`Frames` per ``item.media``).

        In blind mode ``media`` is empty and the request must hold no image part.
        """

    def build_reasoning(self, item: Item, media: Sequence[Any]) -> Request:
        """Build the request a reasoning strategy starts from: :meth:`build` without answer-format text.

        A chain of thought must not follow an instruction to answer directly (VSI-Bench App. B.3 appends
        "Let's think step by step." to the question; the answer format comes from the extraction turn).
        Builders whose layout ends in such an instruction override this; the default is :meth:`build`.
        """
        return self.build(item, media)

    def max_new_tokens(self, item: Item) -> int | None:
        """Answer length the benchmark's official config uses (None = the run's default)."""
        return None

    def fingerprint(self) -> dict[str, Any]:
        """Everything that shapes the prompt text (recorded; hashed into request keys)."""
        return {"builder": type(self).__name__, "config": self.config.model_dump(mode="json")}


BuilderFactory = Callable[[PromptConfig], PromptBuilder]
"""A builder class (or factory) called with the run's :class:`PromptConfig`."""


def image_parts(
    media: Sequence[F], label: Callable[[F, int], str | None] | None = None
) -> tuple[ImagePart, ...]:
    """All frames of ``media`` in order as image parts; ``label(media, k)`` may caption frame ``k``."""
    return tuple(
        ImagePart(pixels, label(m, k) if label else None) for m in media for k, pixels in enumerate(m.pixels)
    )


def arrange(video: tuple[ImagePart, ...], text: str, order: InputOrder, repeats: int) -> tuple[Part, ...]:
    """Order video and text: ``[video][text]`` or ``[text][video]``.

    ``repeats`` > 1 shows the video again after the text (``[video][text][video]``, VSI-Bench App. D).
    Without video (blind) the request is just the text.
    """
    context = (TextPart(text),)
    if not video:
        return context
    if order is InputOrder.QUESTION_FIRST:
        return context + video * repeats
    return video + context + video * (repeats - 1)
