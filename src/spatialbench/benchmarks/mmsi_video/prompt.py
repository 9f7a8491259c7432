r"""Build the model input of an MMSI-Video-Bench item (MMSI-Video-Bench App. B, Fig. 14).

The input text is ``system_prompt + "\n" + task_prompt + user_prompt + format_prompt`` (the template lives in
``templates/input_prompt.txt``). Each ``<video>`` placeholder is replaced by that video's sampled frames and
each ``<image>`` placeholder by the next reference image, so frames and images stand where the annotators put
them (``item.media`` is already in placeholder order).

A run first narrows each item to its setting with :func:`apply_setting` (the multi-video proportional
allocation of :mod:`~spatialbench.benchmarks.mmsi_video.frames`), then samples every media reference with
strategy ``all`` and lays the request out with the benchmark's prompt builder (:class:`MMSIVideoBuilder`).
:func:`build_request` does all three for one item.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from spatialbench.benchmarks.mmsi_video.format import IMAGE_PLACEHOLDER, PROMPT_FIELDS, VIDEO_PLACEHOLDER
from spatialbench.benchmarks.mmsi_video.frames import apply_setting, format_timestamp
from spatialbench.media.cache import load_media
from spatialbench.media.errors import MediaError
from spatialbench.media.sampling import parse_strategy
from spatialbench.media.video import SampledFrames
from spatialbench.prompting.builders import PromptBuilder
from spatialbench.prompting.templates import fill, read_text
from spatialbench.records.item import Item, MediaKind
from spatialbench.records.messages import ImagePart, Part, Request, TextPart

_PLACEHOLDERS = re.compile(f"({re.escape(VIDEO_PLACEHOLDER)}|{re.escape(IMAGE_PLACEHOLDER)})")
#: the strategy a run uses for items narrowed by :func:`apply_setting` (their frame lists are the sample)
MEDIA_STRATEGY = "all"


def input_text(item: Item) -> str:
    """Assemble the official input text of an item, placeholders still in place."""
    values = {name: item.metadata[name] for name in PROMPT_FIELDS}
    return fill(read_text(__package__, "templates/input_prompt.txt"), values)


def interleave(item: Item, media: Sequence[SampledFrames], label_frames: bool = False) -> Request:
    """Split the input text at its placeholders and put each media's frames in its place.

    Args:
        item: the (narrowed) item.
        media: one sample per ``item.media`` entry, in the same order; empty for a blind run (the
            placeholders are then dropped and the request holds no image).
        label_frames: label each video frame with its time ``mm:ss.ff`` (off by default: the official
            evaluation shows the time only inside the frame, drawn in its top-left corner).

    Raises:
        ValueError: ``media`` does not have one entry per ``item.media``.
    """
    if media and len(media) != len(item.media):
        raise ValueError(
            f"item {item.id!r}: {len(media)} media samples for {len(item.media)} media references"
        )
    samples: Iterator[SampledFrames] = iter(media)
    parts: list[Part] = []
    for piece in _PLACEHOLDERS.split(input_text(item)):
        if piece in (VIDEO_PLACEHOLDER, IMAGE_PLACEHOLDER):
            if media:
                parts.extend(_images(next(samples), label_frames and piece == VIDEO_PLACEHOLDER))
        elif piece:
            parts.append(TextPart(piece))
    return Request(parts=tuple(parts))


def _images(sample: SampledFrames, labelled: bool) -> list[ImagePart]:
    labels = [format_timestamp(float(t)) if labelled else None for t in sample.timestamps]
    return [ImagePart(pixels, label) for pixels, label in zip(sample.pixels, labels, strict=True)]


class MMSIVideoBuilder(PromptBuilder):
    """Prompt builder of MMSI-Video-Bench: the official input text with frames and images interleaved.

    Prompt override ``frame_labels=timestamp`` (``spatialbench run --prompt frame_labels=timestamp``) labels
    each video frame with its ``mm:ss.ff`` time; the default ``none`` is the official input.
    """

    known_overrides = frozenset({"frame_labels"})

    @property
    def label_frames(self) -> bool:
        """Whether frames carry their timestamp labels (override ``frame_labels``).

        Raises:
            ValueError: a value other than ``none`` or ``timestamp``.
        """
        value = self.config.overrides.get("frame_labels", "none")
        if value not in ("none", "timestamp"):
            raise ValueError(f"prompt field frame_labels must be 'none' or 'timestamp', got {value!r}")
        return value == "timestamp"

    def build(self, item: Item, media: Sequence[SampledFrames]) -> Request:
        """Build the request of an item narrowed by :func:`apply_setting` (see :func:`interleave`).

        Raises:
            MediaError: the run sampled fewer frames than the setting chose (a frame strategy other than
                ``all`` re-sampled the narrowed lists); the runner records it for the item.
        """
        if self.config.blind:
            return interleave(item, [])
        if "setting" in item.metadata:
            _check_all_frames(item, media)
        return interleave(item, media, self.label_frames)


def _check_all_frames(item: Item, media: Sequence[SampledFrames]) -> None:
    for ref, sample in zip(item.media, media, strict=False):
        if ref.kind is MediaKind.FRAMES and len(sample.pixels) != len(ref.frames):
            raise MediaError(
                sample.source,
                f"item {item.id}: setting {item.metadata['setting']} chose {len(ref.frames)} frames but the "
                f"run sampled {len(sample.pixels)}; run MMSI-Video-Bench with --frames {MEDIA_STRATEGY}",
            )


def build_request(item: Item, setting: str, label_frames: bool = False) -> Request:
    """Narrow ``item`` to ``setting``, load its frames and reference images, and lay the request out.

    Raises:
        ValueError: unknown setting. spatialbench.media.errors.MediaError: an image cannot be read.
    """
    narrowed = apply_setting(item, setting)
    strategy = parse_strategy(MEDIA_STRATEGY)
    media = [load_media(ref, None, strategy, None) for ref in narrowed.media]
    return interleave(narrowed, media, label_frames)
