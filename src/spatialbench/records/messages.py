"""The messages back ends exchange: text and image parts, requests, decoding settings, responses.

Back ends receive these and know nothing of items or benchmarks (DESIGN.md, layer 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field
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

    ``max_new_tokens`` bounds the answer length; ``logprobs`` asks for per-token log-probabilities where
    the back end can return them; ``extra`` carries provider-specific scalars (recorded with the run).
    """

    temperature: float = 0.0
    top_p: float = 1.0
    max_new_tokens: int = 128
    seed: int | None = None
    logprobs: bool = False
    extra: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Request:
    """One model call: an optional system prompt, then a user turn of interleaved parts.

    ``history`` holds earlier turns as (role, parts) pairs for multi-turn strategies
    (e.g. a chain-of-thought answer-extraction turn).
    """

    parts: tuple[Part, ...]
    system: str | None = None
    settings: GenerationSettings = field(default_factory=GenerationSettings)
    history: tuple[tuple[str, tuple[Part, ...]], ...] = ()

    @property
    def n_images(self) -> int:
        """Number of image parts in the user turn."""
        return sum(isinstance(p, ImagePart) for p in self.parts)


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
