"""Predictions JSONL read a block of lines at a time (:class:`~spatialbench.records.blocks.Block`).

:func:`block_pairs` reads a block whose every line is ``{"id": <int or text>, "<field>": <text>}`` — no
other field, no lone surrogate in a text — in C loops over its columns, a million lines in well under a
second; for any other block it returns None, and the reader takes the block line by line (with its row
errors). Its ids are spelled as the items spell them (``str`` of an integer), as the line-by-line
reading spells them. :func:`hold_clean_blocks` holds such blocks back and adds their responses all at
once, when they end (or another entry comes): an id read twice sends the blocks, in order, through
:func:`add_pairs`, which leaves a block repeating an id to the line-by-line reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain, compress
from operator import itemgetter, not_
from typing import Any, TypeVar

from spatialbench.records.blocks import Block
from spatialbench.records.surrogates import LONE_SURROGATE

_ID = itemgetter("id")
E = TypeVar("E")
Pairs = tuple[list[str], list[str]]
"""A block's ids and response texts, line by line."""


def block_pairs(records: list[dict[str, Any]], field: str | None) -> Pairs | None:
    """Return the ids and texts of a block of clean lines (module docstring), or None."""
    if set(map(len, records)) != {2}:
        return None
    try:
        ids, texts = list(map(_ID, records)), list(map(itemgetter(field or "response"), records))
    except KeyError:
        return None
    if not set(map(type, ids)) <= {int, str} or set(map(type, texts)) != {str}:
        return None
    # UTF-8 cannot write a lone surrogate into items.csv; ASCII text (a flag of the string) holds none
    if any(map(LONE_SURROGATE.search, compress(texts, map(not_, map(str.isascii, texts))))):
        return None
    return list(map(str, ids)), texts


def add_pairs(responses: dict[str, str], keys: list[str], texts: list[str]) -> bool:
    """Add the responses and return True, or add nothing and return False: an id twice or already read."""
    if len(set(keys)) != len(keys) or not responses.keys().isdisjoint(keys):
        return False
    responses.update(zip(keys, texts, strict=True))
    return True


def hold_clean_blocks(entries: Iterable[E], responses: dict[str, str], field: str | None,
                      read_line: Callable[[str, int, str, str], None]) -> Iterator[E]:
    """Yield the entries that are not clean blocks; add the clean blocks' responses to ``responses``.

    The clean blocks met in a row are added before the next entry is yielded, in file order: their ids
    checked at once (one dict of them all, not a look-up of each block's ids in the responses read so
    far: a million lines, ~0.3 s less). A block whose ids repeat one read before it goes line by line:
    ``read_line(file, line, id, text)`` for each of its lines, as the reader takes one line.
    """
    held: list[tuple[str, int, list[str], list[str]]] = []
    for entry in entries:
        if isinstance(entry, Block) and (pairs := block_pairs(entry.records, field)) is not None:
            held.append((entry.file, entry.first, *pairs))
            continue
        _add_held(held, responses, read_line)
        yield entry
    _add_held(held, responses, read_line)


def _add_held(held: list[tuple[str, int, list[str], list[str]]], responses: dict[str, str],
              read_line: Callable[[str, int, str, str], None]) -> None:
    """Add the held blocks' responses (:func:`hold_clean_blocks`) and empty ``held``."""
    keys, texts = chain.from_iterable(h[2] for h in held), chain.from_iterable(h[3] for h in held)
    merged = dict(zip(keys, texts, strict=True))
    if len(merged) == sum(len(h[2]) for h in held) and responses.keys().isdisjoint(merged.keys()):
        responses.update(merged)
    else:
        for file, first, ids, answers in held:
            if not add_pairs(responses, ids, answers):
                for line, (key, text) in enumerate(zip(ids, answers, strict=True), start=first):
                    read_line(file, line, key, text)
    held.clear()
