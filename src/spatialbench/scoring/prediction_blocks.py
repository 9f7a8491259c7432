"""Predictions JSONL read a block of lines at a time (:class:`~spatialbench.records.blocks.Block`).

:func:`add_block` adds the responses of a block whose every line is ``{"id": <int or text>, "<field>":
<text>}`` — no other field, no lone surrogate in a text, no id twice in the block or already read — in C
loops over its columns, a million lines in well under a second; for any other block it adds nothing and
returns False, and the reader takes the block line by line (with its row errors). The responses added
are those the line-by-line reading adds: ids spelled as the items spell them (``str`` of an integer).
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter, not_
from typing import Any

from spatialbench.records.surrogates import LONE_SURROGATE

_ID = itemgetter("id")


def add_block(responses: dict[str, str], records: list[dict[str, Any]], field: str | None) -> bool:
    """Add the block's responses to ``responses`` and return True, or add nothing and return False."""
    if set(map(len, records)) != {2}:
        return False
    try:
        ids, texts = list(map(_ID, records)), list(map(itemgetter(field or "response"), records))
    except KeyError:
        return False
    if not set(map(type, ids)) <= {int, str} or set(map(type, texts)) != {str}:
        return False
    # UTF-8 cannot write a lone surrogate into items.csv; ASCII text (a flag of the string) holds none
    if any(map(LONE_SURROGATE.search, compress(texts, map(not_, map(str.isascii, texts))))):
        return False
    keys = list(map(str, ids))
    if len(set(keys)) != len(keys) or not responses.keys().isdisjoint(keys):
        return False
    responses.update(zip(keys, texts, strict=True))
    return True
