"""The types a benchmark's loader options take, read from the loader's annotations (``--option KEY=VALUE``).

:func:`check_kind` refuses a value of another type than the annotation's (the number 50 for text) or a
path that does not exist, with an :class:`OptionError` naming the option.
"""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any

from spatialbench.errors import SpatialBenchError

Scalar = str | int | float | bool
_KIND_NAMES = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}


class OptionError(SpatialBenchError, ValueError):
    """A loader option value the benchmark refuses: ``option`` (its name) and ``reason`` (why, one line)."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"benchmark option {option!r}: {reason}")
        self.option, self.reason = option, reason
        self.location = option


def _scalar_kinds(annotation: Any) -> tuple[set[type], bool] | None:
    """Return the scalar types an option annotation takes and whether it takes a file path.

    ``Path`` and ``Literal`` strings count as text; None when the annotation takes anything (``Any``).
    """
    union = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    members = typing.get_args(annotation) if union else (annotation,)
    kinds: set[type] = set()
    for member in members:
        if member is Any:
            return None
        if typing.get_origin(member) is typing.Literal:
            kinds.update(type(value) for value in typing.get_args(member))
        elif member in _KIND_NAMES or member is Path:
            kinds.add(str if member is Path else member)
    return kinds, Path in members


def _described(value: Scalar) -> str:
    if isinstance(value, bool):
        return f"the value {str(value).lower()}"
    return f"the text {value!r}" if isinstance(value, str) else f"the number {value}"


def check_kind(name: str, value: object, annotation: Any) -> None:
    """Refuse a scalar ``value`` of a type the option's annotation does not take (OptionError).

    An int given for text, ``true`` for a number; a text value of an option that takes a path must name an
    existing file.
    """
    declared = _scalar_kinds(annotation)
    if declared is None or not isinstance(value, (bool, int, float, str)):
        return  # the loader's own business (e.g. pruned ids given as a set)
    kinds, takes_path = declared
    kind = type(value)
    if kinds and kind not in kinds and not (kind is int and float in kinds):
        wanted = " or ".join(_KIND_NAMES[k] for k in _KIND_NAMES if k in kinds)
        raise OptionError(name, f"takes {wanted}, not {_described(value)}")
    if takes_path and isinstance(value, str) and not Path(value).exists():
        raise OptionError(name, f"no such file: {value}")
