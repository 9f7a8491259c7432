"""Counted nouns in messages: ``1 item``, ``2 items`` (every layer's wording)."""

from __future__ import annotations


def plural(count: int, word: str) -> str:
    """``"1 frame"``, ``"2 frames"``, ``"0 frames"`` (a regular plural: ``word`` + s)."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
