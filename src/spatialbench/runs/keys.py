"""Request keys: a hash of what is sent to the model, and of nothing else.

``key = sha256(item id, text of the request (system prompt, text parts, earlier turns, image positions),
media references and content digests, frame strategy, size limit, image encoding, prompt fingerprint
(builder, layout settings, template text), decoding settings, model identity)``.
The frame indices sent are a function of the media content and the frame strategy, so both are hashed
instead of decoding every video at planning time. Ground truth, the pruned-id list, extraction and MRA
modes (scoring-only settings) are not part of the key: changing them re-scores the stored answers and
re-sends nothing. Timeouts, concurrency and the output folder do not change it either.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from typing import Any

from spatialbench.records.item import Item
from spatialbench.records.messages import GenerationSettings, Part, Request, TextPart

IMAGE_SLOT = {"image": True}
"""How an image part stands in a request's text record (its pixels are keyed by the media digests)."""


def model_identity(name: str) -> str:
    """Return the model name as keyed.

    An OpenAI-compatible endpoint's URL is dropped and its served model name kept: a server restarted on
    another port serves the same model.
    """
    provider, _, model = name.partition(":")
    if provider == "openai-compatible":
        return f"{provider}:{model.rpartition('#')[2]}"
    return name


def _parts(parts: tuple[Part, ...]) -> list[Any]:
    return [p.text if isinstance(p, TextPart) else {**IMAGE_SLOT, "label": p.label} for p in parts]


def request_text(request: Request) -> dict[str, Any]:
    """Return the text of ``request`` as keyed: system prompt, parts (images as slots), earlier turns."""
    return {
        "system": request.system,
        "parts": _parts(request.parts),
        "history": [[role, _parts(parts)] for role, parts in request.history],
    }


def request_key(
    item: Item,
    media_digests: list[list[str]],
    *,
    frames: str,
    max_pixels: int | None,
    prompt: dict[str, Any],
    settings: GenerationSettings,
    model: str,
    sent: dict[str, Any] | None = None,
    encoding: dict[str, Any] | None = None,
) -> str:
    """Hex sha256 of the canonical JSON of what is sent for ``item``.

    Args:
        item: the item; only its id and media references are keyed (never its ground truth or metadata:
            whatever of them reaches the model is in ``sent``).
        media_digests: per media reference, the digests of its files (empty when no media is sent).
        frames: the frame strategy ("" when no media is sent).
        max_pixels: the size limit (None when no media is sent).
        prompt: the prompt builder's fingerprint (a baseline's name for baselines).
        settings: decoding settings.
        model: the model name (keyed by :func:`model_identity`).
        sent: the request's text (:func:`request_text`); None for baselines, which send nothing.
        encoding: how images are encoded for the wire (``image_format``...; None when no media is sent):
            PNG and JPEG frames are different inputs.
    """
    record = {
        "item": item.id,
        "refs": [ref.model_dump(mode="json") for ref in item.media] if media_digests else [],
        "sent": sent,
        "media": media_digests,
        "frames": frames,
        "max_pixels": max_pixels,
        "encoding": encoding,
        "prompt": prompt,
        "settings": asdict(settings),
        "model": model_identity(model),
    }
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()
