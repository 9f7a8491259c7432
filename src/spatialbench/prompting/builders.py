"""Prompt builders: one per benchmark, registered by benchmark name.

A builder turns an :class:`~spatialbench.records.item.Item` and its sampled media into a model
:class:`~spatialbench.models.base.Request`. A benchmark with its own layout (MMSI-Video-Bench interleaved
placeholders, ReMindView-Bench system prompts) registers a subclass::

    @PROMPT_BUILDERS.register("mmsi-video")
    class MMSIVideoBuilder(PromptBuilder): ...

Builders may live in any module of ``spatialbench.prompting`` or ``spatialbench.benchmarks``; both packages
are imported on the first :func:`get_prompt_builder` call. Benchmarks without a builder get ``default``.
"""

from __future__ import annotations

import importlib
import pkgutil
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from spatialbench.media.video import SampledFrames
from spatialbench.prompting.config import InputOrder, PromptConfig
from spatialbench.records.item import Item
from spatialbench.records.messages import ImagePart, Part, Request, TextPart
from spatialbench.registry import Registry


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
    def build(self, item: Item, media: Sequence[SampledFrames]) -> Request:
        """Build the request for ``item`` from its sampled media (one entry per ``item.media``).

        In blind mode ``media`` is empty and the request must hold no image part.
        """

    def max_new_tokens(self, item: Item) -> int | None:
        """Answer length the benchmark's official config uses (None = the run's default)."""
        return None

    def fingerprint(self) -> dict[str, Any]:
        """Everything that shapes the prompt text (recorded; hashed into request keys)."""
        return {"builder": type(self).__name__, "config": self.config.model_dump(mode="json")}


#: benchmark name → builder class (called with the run's PromptConfig).
PROMPT_BUILDERS: Registry[Callable[[PromptConfig], PromptBuilder]] = Registry("prompt builder")
_discovered = False


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    from spatialbench.benchmarks.registry import discover

    discover()
    package = importlib.import_module("spatialbench.prompting")
    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"spatialbench.prompting.{module.name}")
    _discovered = True


def get_prompt_builder(benchmark: str, config: PromptConfig) -> PromptBuilder:
    """Return the builder registered for ``benchmark`` (or ``default``), configured with ``config``."""
    _discover()
    name = benchmark if benchmark in PROMPT_BUILDERS else "default"
    return PROMPT_BUILDERS.get(name)(config)


def image_parts(
    media: Sequence[SampledFrames], label: Callable[[SampledFrames, int], str | None] | None = None
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
