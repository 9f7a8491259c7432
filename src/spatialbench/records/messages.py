"""The messages back ends exchange: text and image parts, requests, decoding settings, responses.

Back ends receive these and know nothing of items or benchmarks (DESIGN.md, layer 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class TextPart:
    """A piece of prompt text."""

    text: str


@dataclass(frozen=True)
class ImagePart:
    """One image: an RGB array of shape (H, W, 3), dtype uint8.

    ``label`` is optional text a back end may place before the image (e.g. a frame timestamp or name).
    """

    pixels: NDArray[np.uint8]
    label: str | None = None


Part = TextPart | ImagePart


@dataclass(frozen=True)
class GenerationSettings:
    """Decoding settings; defaults are greedy decoding as in VSI-Bench Sec. 4.1.

    ``max_new_tokens`` bounds the answer length; ``top_k`` (None = the provider's default, not sent)
    keeps the k most likely tokens when sampling (VSI-Bench App. B.3 samples with top-k 40; back ends
    that cannot send it say so in their docstring); ``logprobs`` asks for per-token log-probabilities
    where the back end can return them; ``extra`` carries provider-specific scalars (recorded with the run).
    """

    temperature: float = 0.0
    top_p: float = 1.0
    top_k: int | None = None
    max_new_tokens: int = 128
    seed: int | None = None
    logprobs: bool = False
    extra: tuple[tuple[str, Any], ...] = ()


Turn = tuple[str, tuple[Part, ...]]
"""One turn of a conversation: its role (``"user"`` or ``"assistant"``) and its parts."""


@dataclass(frozen=True)
class Request:
    """One model call: an optional system prompt, earlier turns, then the user turn of interleaved parts.

    ``history`` holds earlier turns as (role, parts) pairs, oldest first, for multi-turn strategies (a
    chain-of-thought answer-extraction turn, a question after a cognitive map; VSI-Bench App. B.3/B.4).
    A conversation carries its media once: the images stay in the turn that first showed them, and
    :meth:`followup` adds text turns after it.
    """

    parts: tuple[Part, ...]
    system: str | None = None
    settings: GenerationSettings = field(default_factory=GenerationSettings)
    history: tuple[Turn, ...] = ()

    @property
    def turns(self) -> tuple[Turn, ...]:
        """Every turn in order: the history, then ``("user", parts)``."""
        return (*self.history, ("user", self.parts))

    @property
    def n_images(self) -> int:
        """Number of image parts in all turns (the media sent with the request)."""
        return sum(isinstance(p, ImagePart) for _, parts in self.turns for p in parts)

    def followup(
        self, answer: str, parts: tuple[Part, ...], settings: GenerationSettings | None = None
    ) -> Request:
        """Return the next request of this dialogue.

        The new request's history is this request's turns plus the model's ``answer`` (an assistant
        turn); ``parts`` is the new user turn (text, usually: the media stay where they were shown).
        ``settings`` None keeps this request's settings.
        """
        history = (*self.turns, ("assistant", (TextPart(answer),)))
        return replace(self, parts=parts, history=history, settings=settings or self.settings)

    def keep_images(self, keep: set[int]) -> Request:
        """Return a copy without the image parts whose index over all turns (0-based) is not in ``keep``."""
        counter = iter(range(self.n_images))

        def kept(parts: tuple[Part, ...]) -> tuple[Part, ...]:
            return tuple(p for p in parts if not isinstance(p, ImagePart) or next(counter) in keep)

        history = tuple((role, kept(parts)) for role, parts in self.history)
        return replace(self, history=history, parts=kept(self.parts))


@dataclass(frozen=True)
class TokenLogprob:
    """A generated token and its log-probability (natural log)."""

    token: str
    logprob: float


@dataclass(frozen=True)
class Response:
    """What a back end returns.

    ``text`` is the raw model output (untrusted); token counts are None when the provider does not say.
    """

    text: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    logprobs: tuple[TokenLogprob, ...] | None = None
    # provider metadata worth keeping (finish reason, model id); never secrets
    raw: dict[str, Any] | None = None
