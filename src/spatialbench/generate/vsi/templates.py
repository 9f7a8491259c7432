"""Question templates of VSI-Bench (Table 3, wording as in the official files), loaded from package data."""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources


@cache
def templates() -> dict[str, str]:
    """Task name -> question template with named ``{placeholders}`` (read once, on first use)."""
    text = resources.files("spatialbench.generate.vsi").joinpath("data/templates.json").read_text()
    return dict(json.loads(text))


@cache
def placeholders(task: str) -> tuple[str, ...]:
    """Names of the placeholders of ``task``'s template, in order of first appearance."""
    names = [f for _, f, _, _ in string.Formatter().parse(templates()[task]) if f]
    return tuple(dict.fromkeys(names))


def render(task: str, **fields: str) -> str:
    """Fill ``task``'s template; choice placeholders not given are kept as ``{choice_x}`` for later.

    Raises:
        KeyError: unknown task, or a non-choice placeholder missing from ``fields``.
    """
    missing = [p for p in placeholders(task) if p not in fields and not p.startswith("choice_")]
    if missing:
        raise KeyError(f"template {task!r} needs fields {missing}")
    keep = {p: "{" + p + "}" for p in placeholders(task) if p.startswith("choice_")}
    return templates()[task].format(**{**keep, **fields})
