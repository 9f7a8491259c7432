"""Majority votes of the voting strategies (VSI-Bench App. B.3) and reading a vote from a reply.

Ties: among the values with the most votes, the one that was cast first wins (earliest sample), so a
result does not depend on hashing or on the order replies arrive in. A sample with no answer (the
extractor read nothing) casts no vote; with no vote at all there is no winner (None).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

Vote = str | float | None
"""A vote: an extracted letter or number (a choice index is an int, a float to the type checker)."""

_BEST = re.compile(r"best choice is\W{0,3}(?:choice|plan|answer)?\W{0,3}(\d+)", re.IGNORECASE)


def majority(values: Sequence[Vote]) -> Vote:
    """Return the most frequent non-None value; ties go to the value cast first; None when all are None.

    Numbers vote by their extracted value (``3`` and ``3.0`` are one vote each for 3.0).
    """
    cast = [v for v in values if v is not None]
    if not cast:
        return None
    counts = Counter(cast)
    top = max(counts.values())
    return next(v for v in cast if counts[v] == top)


def read_vote(text: str, n_choices: int) -> int | None:
    """Return the 0-based choice a vote reply names ("The best choice is 2" → 1); the last one counts.

    Returns None (no vote) when no such sentence names a choice in ``1..n_choices``. Never raises.
    """
    if not isinstance(text, str):
        return None
    found = _BEST.findall(text[-32_768:])
    if not found:
        return None
    number = int(found[-1])
    return number - 1 if 1 <= number <= n_choices else None
