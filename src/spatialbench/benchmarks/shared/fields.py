"""The fields of one release entry, checked by name: a row error names the field the file really has.

A JSON line or list entry that is not an object, a missing or empty field, a field that should be a list
of paths: each is a :class:`~spatialbench.records.errors.MalformedSampleError` naming that field, never
the text of a ``KeyError`` / ``TypeError`` (``field "'choices'"``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spatialbench.records.errors import MalformedSampleError


def entry_object(entry: Any, sample_id: str = "") -> Mapping[str, Any]:
    """Return ``entry`` when it is a JSON object.

    Raises:
        MalformedSampleError: it is a list, a string, a number... (no field: the whole entry is wrong).
    """
    if not isinstance(entry, Mapping):
        raise not_an_object(entry, sample_id)
    return entry


def not_an_object(entry: Any, sample_id: str = "") -> MalformedSampleError:
    """Return the error for an entry that is not a JSON object (no field: the whole entry is wrong)."""
    return MalformedSampleError(sample_id, "", f"a JSON {_kind(entry)}, not a question object")


def required(entry: Mapping[str, Any], names: Sequence[str], sample_id: str = "") -> None:
    """Refuse an entry in which one of ``names`` is missing, null or empty text (MalformedSampleError)."""
    for name in names:
        value = entry.get(name)
        if value is None or (isinstance(value, str) and not value.strip()):
            raise MalformedSampleError(sample_id, name, "missing" if name not in entry else "empty")


def path_list(entry: Mapping[str, Any], name: str, sample_id: str = "") -> list[str]:
    """Return field ``name`` as a list of path strings.

    Raises:
        MalformedSampleError: the field is missing or not a list of strings (a bare string is refused:
            read as a list, it would be one image per character).
    """
    value = entry.get(name)
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        got = "missing" if name not in entry else f"a JSON {_kind(value)}"
        raise MalformedSampleError(sample_id, name, f"{got}: it must be a list of image paths")
    return value


def _kind(value: Any) -> str:
    names = {dict: "object", list: "list", str: "string", bool: "boolean", int: "number", float: "number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)
