"""Prompt template data files (package data under ``prompting/data``) and strict placeholder filling."""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Any


class TemplateError(ValueError):
    """A template names a placeholder that is not supplied, or a value is not used (data file bug)."""


@cache
def load_template_data(name: str) -> dict[str, Any]:
    """Read ``prompting/data/<name>.json``.

    Raises:
        FileNotFoundError: no such template file.
    """
    text = resources.files("spatialbench.prompting").joinpath("data", f"{name}.json").read_text("utf-8")
    return json.loads(text)


def placeholders(template: str) -> set[str]:
    """Return the named placeholders of a ``str.format`` template."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def fill(template: str, values: dict[str, str]) -> str:
    """Fill every placeholder of ``template`` from ``values``.

    Raises:
        TemplateError: a placeholder has no value (the message names it and the template).
    """
    missing = placeholders(template) - values.keys()
    if missing:
        raise TemplateError(f"template {template!r} needs {sorted(missing)}; got {sorted(values)}")
    return template.format(**values)


def fill_lines(template: str, values: dict[str, str]) -> str:
    """:func:`fill` line by line, dropping template lines that fill to nothing.

    An empty override (``--prompt pre_prompt=``) then removes its segment instead of leaving an empty
    line where it was.
    """
    filled = (fill(line, values) for line in template.split("\n"))
    return "\n".join(line for line in filled if line.strip())
