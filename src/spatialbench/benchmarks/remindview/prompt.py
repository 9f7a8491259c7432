"""Build the model input of a ReMindView-Bench item (ReMindView-Bench App. C, Table 7).

System prompt: the pattern's Table 7 prompt (``templates/system_<pattern>.txt``; the view-centric one states
the rotations between frames) asking for the 4-phase structured output. Its phase-(3) example sentence depends
on the relation as in the official evaluation code (``templates/step3_examples.json``; Table 7 prints the
object–object one for object-centric and the view–object one for view-centric).

User turn: each frame of the frame set as its file name and a colon (``frame0:``) followed by the image, in
natural file-name order, then ``templates/user.txt`` with the question and the lettered choices.
"""

from __future__ import annotations

from collections.abc import Sequence

from spatialbench.media.cache import load_media
from spatialbench.media.sampling import parse_strategy
from spatialbench.media.video import SampledFrames
from spatialbench.prompting.builders import PromptBuilder
from spatialbench.prompting.templates import fill, read_json, read_text
from spatialbench.records.item import Item
from spatialbench.records.messages import ImagePart, Part, Request, TextPart


def system_prompt(pattern: str, relation: str) -> str:
    """Return the system prompt of a pattern (``object-centric`` / ``view-centric``) and relation.

    Raises:
        KeyError: a pattern or relation without a prompt (view–view queries are not asked view-centric,
            App. C); the message names the known pairs.
    """
    examples = read_json(__package__, "templates/step3_examples.json")
    if relation not in examples.get(pattern, {}):
        known = [(p, r) for p, rs in examples.items() if not p.startswith("_") for r in rs]
        raise KeyError(
            f"no ReMindView-Bench system prompt for pattern {pattern!r}, relation {relation!r}; known {known}"
        )
    template = read_text(__package__, f"templates/system_{pattern.replace('-', '_')}.txt")
    return fill(template, {"step3_example": examples[pattern][relation]})


def user_text(item: Item) -> str:
    """Write the question, its lettered choices (``A. frame1``, one per line) and the format reminder."""
    values = {"question": item.question, "choices": "\n".join(item.options)}
    return fill(read_text(__package__, "templates/user.txt"), values)


def layout(item: Item, media: Sequence[SampledFrames]) -> Request:
    """Lay the request out: Table 7 system prompt; each frame's name and image, then the question.

    ``media`` is empty in a blind run (no images are sent).

    Raises:
        KeyError: see :func:`system_prompt`. ValueError: ``media`` does not match ``item.media``.
    """
    if media and len(media) != len(item.media):
        raise ValueError(f"item {item.id!r}: {len(media)} media samples for {len(item.media)} frames")
    parts: list[Part] = []
    for ref, sample in zip(item.media, media, strict=False):
        parts.append(TextPart(f"{ref.name}:"))
        parts.extend(ImagePart(pixels) for pixels in sample.pixels)
    parts.append(TextPart(user_text(item)))
    return Request(
        parts=tuple(parts), system=system_prompt(item.metadata["pattern"], item.metadata["relation"])
    )


class ReMindViewBuilder(PromptBuilder):
    """Prompt builder of ReMindView-Bench (see :func:`layout`); frames are sampled with strategy ``all``."""

    def build(self, item: Item, media: Sequence[SampledFrames]) -> Request:
        """Build the request for one item."""
        return layout(item, [] if self.config.blind else media)


def build_request(item: Item) -> Request:
    """Load the frames of ``item`` and lay its request out (see :func:`layout`).

    Raises:
        KeyError: see :func:`system_prompt`. spatialbench.media.errors.MediaError: a frame cannot be read.
    """
    strategy = parse_strategy("all")
    return layout(item, [load_media(ref, None, strategy, None) for ref in item.media])
