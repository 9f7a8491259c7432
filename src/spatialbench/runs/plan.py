"""Planning a run: select items, give each its settings and request key, order them by media."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbench.errors import SpatialBenchError
from spatialbench.media.digests import MediaDigests
from spatialbench.prompting.builders import PromptBuilder
from spatialbench.records.item import Item
from spatialbench.records.messages import GenerationSettings
from spatialbench.runs.config import RunConfig
from spatialbench.runs.keys import request_key, request_text


class SelectionError(SpatialBenchError, ValueError):
    """Requested ids that the benchmark does not contain."""


@dataclass(frozen=True)
class PlannedItem:
    """One item of a run with its decoding settings and request key."""

    item: Item
    settings: GenerationSettings
    key: str


def select_items(items: Sequence[Item], ids: Sequence[str] | None, limit: int | None) -> list[Item]:
    """Keep ``ids`` (in benchmark order) then the first ``limit`` items.

    Raises:
        SelectionError: an id is not in the benchmark (the message lists up to 5).
    """
    chosen = list(items)
    if ids is not None:
        wanted = set(ids)
        unknown = wanted - {it.id for it in chosen}
        if unknown:
            raise SelectionError(
                f"{len(unknown)} requested id(s) not in the benchmark: {sorted(unknown)[:5]}"
            )
        chosen = [it for it in chosen if it.id in wanted]
    return chosen if limit is None else chosen[:limit]


def data_root(data: str) -> Path:
    """Folder that relative media paths resolve against: ``data`` itself, or its folder for a file."""
    path = Path(data)
    return path if path.is_dir() else path.parent


def sent_text(builder: PromptBuilder, item: Item) -> dict[str, Any]:
    """Return the text the builder sends for ``item`` (built without media; images keyed by digests).

    An item the builder refuses is keyed by its error and whole record; it fails again when run.
    """
    try:
        return request_text(builder.build(item, []))
    except (KeyError, ValueError) as exc:  # TemplateError is a ValueError
        return {"unbuilt": f"{type(exc).__name__}: {exc}", "item": item.model_dump(mode="json")}


def plan(
    items: Sequence[Item], config: RunConfig, builder: PromptBuilder, uses_media: bool
) -> list[PlannedItem]:
    """Return settings and request key per item (media digested only when media is sent).

    The key hashes what is sent (:mod:`spatialbench.runs.keys`): a changed ground truth, pruned-id list
    or scoring mode keeps every key, so a re-run re-scores the stored answers without a request.
    """
    digests = MediaDigests(data_root(config.data.path))
    fingerprint = builder.fingerprint()
    planned = []
    for item in items:
        settings = config.model.generation(builder.max_new_tokens(item))
        media = [digests.of(ref) for ref in item.media] if uses_media else []
        key = request_key(
            item,
            media,
            frames=_frames(config) if uses_media else "",
            max_pixels=config.media.max_pixels if uses_media else None,
            prompt=fingerprint,
            settings=settings,
            model=config.model.name,
            sent=sent_text(builder, item),
            encoding=_encoding(config) if uses_media else None,
        )
        planned.append(PlannedItem(item, settings, key))
    return planned


def _frames(config: RunConfig) -> str:
    """Return the frame strategy as keyed: ``aks:N`` with its scorer (another scorer, other frames)."""
    if config.media.aks_model is None or not config.frame_strategy.startswith("aks:"):
        return config.frame_strategy  # a scorer named for a sweep's other runs changes no uniform:N key
    return f"{config.frame_strategy} scored by {config.media.aks_model}"


def _encoding(config: RunConfig) -> dict[str, Any]:
    """How images go on the wire (part of the request key): the format, and the quality of JPEG."""
    model = config.model
    if model.image_format.value == "jpeg":
        return {"image_format": "jpeg", "jpeg_quality": model.jpeg_quality}
    return {"image_format": model.image_format.value}


def media_order(planned: Sequence[PlannedItem]) -> list[PlannedItem]:
    """Group items by their media (stable), so each video's questions run together and hit the cache."""
    return sorted(planned, key=lambda p: tuple(ref.path for ref in p.item.media))
