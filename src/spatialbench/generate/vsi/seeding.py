"""Seeded random generators derived from a root seed and names (same seed -> same bytes)."""

from __future__ import annotations

import hashlib

import numpy as np


def derived_rng(seed: int, *names: str) -> np.random.Generator:
    """Return a generator seeded from ``seed`` and ``names`` (stable across runs and platforms)."""
    digest = hashlib.sha256("\x1f".join([str(seed), *names]).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))
