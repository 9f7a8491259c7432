"""One rule for turning a request's parts into a provider's content items.

Every back end walks the interleaved parts the same way: a text part becomes a text item; an image part
becomes its label (if any) as a text item, then the image item. Providers differ only in the item shapes,
which the caller supplies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from spatialbench.records.messages import ImagePart, Part, TextPart

T = TypeVar("T")


def map_parts(parts: Iterable[Part], text: Callable[[str], T], image: Callable[[ImagePart], T]) -> list[T]:
    """Content items for ``parts`` in order: ``text(s)`` per text and label, ``image(part)`` per image."""
    items: list[T] = []
    for part in parts:
        if isinstance(part, TextPart):
            items.append(text(part.text))
            continue
        if part.label:
            items.append(text(part.label))
        items.append(image(part))
    return items
