"""Question templates of VSI-Bench (Table 3, wording as in the official files), loaded from package data.

Reading and filling go through the one template module, :mod:`spatialbench.prompting.templates`.
"""

from __future__ import annotations

from collections.abc import Mapping

from spatialbench.prompting.templates import fill, placeholders, read_json


def templates() -> Mapping[str, str]:
    """Task name -> question template with named ``{placeholders}`` (``data/templates.json``, read once)."""
    data: Mapping[str, str] = read_json(__package__, "data/templates.json")
    return data


def render(task: str, **fields: str) -> str:
    """Fill ``task``'s template; choice placeholders not given are kept as ``{choice_x}`` for later.

    Raises:
        KeyError: unknown task.
        TemplateError: a non-choice placeholder missing from ``fields`` (the message names it).
    """
    template = templates()[task]
    keep = {p: "{" + p + "}" for p in placeholders(template) if p.startswith("choice_")}
    return fill(template, {**keep, **fields})
