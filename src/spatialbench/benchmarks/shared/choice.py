"""Multiple-choice helpers of image benchmarks: the images-then-text request and accuracy by one column.

Most image benchmarks evaluated through VLMEvalKit send every image first and then one text (question,
options, the benchmark's post-prompt); :class:`ImagesThenText` lays that out from the item's images and a
``text(item)`` function the benchmark gives. :func:`column_table` is a table of accuracy per value of an
item column (``task`` or a metadata field), Avg. over all questions, the layout these benchmarks report.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import pandas as pd

from spatialbench.prompting.builders import PromptBuilder
from spatialbench.records.item import Item
from spatialbench.records.messages import ImagePart, Part, Request, TextPart
from spatialbench.scoring.grouped import Group, Table, grouped

TextFn = Callable[[Item], str]


MARKER = "<image>"


class ImagesThenText(PromptBuilder):
    """Every image of the item in order, then ``text(item)``; a blind run sends the text alone.

    Subclasses set ``text`` (a static function ``Item -> str``). With ``markers`` set, a text holding
    ``<image>`` is interleaved instead: each marker is replaced by the next image (VLMEvalKit's
    ``build_msgs``: the text split at the markers, each piece stripped); images left over go first.
    """

    text: ClassVar[TextFn]
    markers: ClassVar[bool] = False

    def build(self, item: Item, media: Sequence[Any]) -> Request:
        """Build the request for one item (``media``: one sample per image or video, empty when blind)."""
        text = type(self).text(item)
        images = [] if self.config.blind else [ImagePart(p) for sample in media for p in sample.pixels]
        if not (type(self).markers and MARKER in text):
            return Request(parts=(*images, TextPart(text)))
        pieces = text.split(MARKER)
        placed = min(len(images), len(pieces) - 1)
        parts: list[Part] = list(images[placed:])
        for k, piece in enumerate(pieces):
            if piece.strip():
                parts.append(TextPart(piece.strip()))
            if k < placed:
                parts.append(images[k])
        return Request(parts=tuple(parts))


def images_then_text(text: TextFn, name: str, *, markers: bool = False) -> type[ImagesThenText]:
    """Return an :class:`ImagesThenText` builder class named ``name`` whose text is ``text(item)``."""
    return type(name, (ImagesThenText,), {"text": staticmethod(text), "markers": markers})


def column_table(
    rows: pd.DataFrame,
    column: str = "task",
    order: Sequence[str] = (),
    labels: Mapping[str, str] | None = None,
) -> Table:
    """Accuracy per value of ``column`` (``order`` first, then the rest sorted); Avg. over all questions.

    ``labels``: the header printed for a value (its paper's short name; the value stays the JSON key).

    ``rows`` are scored rows; a metadata field must already be a column (``scoring.grouped.with_items``).
    The table is keyed by ``column`` too, so that every question counts under Avg. (its n and interval).
    """
    present = [str(v) for v in pd.unique(rows[column])] if column in rows else []
    values = [v for v in order if v in present] + sorted(v for v in present if v not in order)
    named = labels or {}
    groups = [Group.of(named.get(v, v), v, **{column: v}) for v in values]
    return grouped(rows, groups, weighting="questions", by=column)
