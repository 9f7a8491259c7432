"""The one template module: package data files read once, strict placeholder filling.

Every prompt and question template is a data file beside the code that uses it (``templates/*.txt`` or a
JSON file of texts), read through :func:`read_text` / :func:`read_json` (each file read once per process),
and filled with :func:`fill`, which names the placeholder that has no value instead of raising a bare
``KeyError``.
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Any

from spatialbench.errors import SpatialBenchError


class TemplateError(SpatialBenchError, ValueError):
    """A template names a placeholder that is not supplied (the message names it and the template)."""


@cache
def read_text(package: str | None, name: str) -> str:
    """Return the text of data file ``name`` (``"templates/user.txt"``) of ``package``; cached.

    ``package`` is the package holding the file: the calling module's ``__package__``.

    Raises:
        FileNotFoundError: no such file in the package. ValueError: ``package`` is None (a top-level script).
    """
    if package is None:
        raise ValueError(f"template {name!r}: no package to read it from")
    return resources.files(package).joinpath(*name.split("/")).read_text(encoding="utf-8")


@cache
def read_json(package: str | None, name: str) -> Any:
    """Return the parsed JSON of package data file ``name`` of ``package``; cached (do not mutate it).

    Raises:
        FileNotFoundError: no such file. ValueError: the file is not JSON.
    """
    return json.loads(read_text(package, name))


def placeholders(template: str) -> set[str]:
    """Return the named placeholders of a ``str.format`` template."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def fill(template: str, values: dict[str, str]) -> str:
    """Fill every placeholder of ``template`` from ``values`` (values it does not name are ignored).

    Raises:
        TemplateError: a placeholder has no value (the message names it and the template).
    """
    missing = placeholders(template) - values.keys()
    if missing:
        raise TemplateError(f"template {template[:80]!r} needs {sorted(missing)}; got {sorted(values)}")
    return template.format(**values)


def fill_lines(template: str, values: dict[str, str]) -> str:
    """:func:`fill` line by line, dropping template lines that fill to nothing.

    An empty override (``--prompt pre_prompt=``) then removes its segment instead of leaving an empty
    line where it was.
    """
    filled = (fill(line, values) for line in template.split("\n"))
    return "\n".join(line for line in filled if line.strip())
