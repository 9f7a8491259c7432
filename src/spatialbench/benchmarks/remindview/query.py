"""Classify a ReMindView-Bench query: relation, query type, perspective taking, pattern, distance level.

The official QA tables (``ground_truth_generation.py``) encode the kind of a query in ``query_type``:
``<relation>|<query type>|<template index>`` for view–view queries and
``<relation>|<query type>|<perspective_changing | non_perspective_changing>|<template index>`` for the others.
Perspective taking (ReMindView-Bench App. A.1, Table 6) is read from that tag; without it, it is derived from
the template: the perspective-changing (PC) templates are those that put the viewer at an object
("If you are positioned where <object_1> is…", "If positioned at <object_1>…", "If you turn <direction> from
the view of <object_1>…", "After turning <direction> from <object_1>…"); the others are self-perspective (SP).
View–view queries have no perspective class (the 21,250 PC + 18,750 SP queries of Table 4 are the 40,000
non-view–view queries of Table 5).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

RELATIONS = ("view-view", "view-object", "object-object")
QUERY_KINDS = ("relative_direction", "relative_distance")
PATTERNS = ("object-centric", "view-centric")
ROOM_TYPES = {
    "bathroom": "Bathroom",
    "bedroom": "Bedroom",
    "diningroom": "DiningRoom",
    "kitchen": "Kitchen",
    "livingroom": "LivingRoom",
}
_PERSPECTIVE_TAGS = {"perspective_changing": "PC", "non_perspective_changing": "SP"}
_VIEWER_AT_OBJECT = re.compile(r"\bpositioned (?:where|at)\b|\bfrom the view of\b|^\s*after turning\b", re.I)
_LEVEL = re.compile(r"level_(\d+)")
#: Table 1 / Table 5 names of the query_type parts (Table 1 caption: V–V, V–O, O–O; SP, PC; Dir., Dis.)
RELATION_WORDS = {"view-view": "View–View", "view-object": "View–Object", "object-object": "Object–Object"}
KIND_WORDS = {"relative_direction": "Relative Direction", "relative_distance": "Relative Distance"}


@dataclass(frozen=True)
class QueryKind:
    """The parts of ``query_type``; ``perspective`` is ``"SP"``, ``"PC"`` or None (view–view)."""

    relation: str
    query_kind: str
    perspective: str | None
    template_index: int | None


def normalize_query_type(query_type: str) -> str:
    """Canonical ``query_type``: parts stripped and lower-case, inner spaces as ``_``, empty parts dropped.

    ``' View-View | relative_distance | 0 '`` → ``'view-view|relative_distance|0'``.
    """
    parts = ("_".join(p.split()).lower() for p in str(query_type).split("|"))
    return "|".join(p for p in parts if p)


def parse_query_type(query_type: str, query: str) -> QueryKind:
    """Split ``query_type`` and classify perspective taking (module docstring).

    Raises:
        ValueError: the relation or query type is not one of the official names.
    """
    parts = normalize_query_type(query_type).split("|")
    if len(parts) < 2 or parts[0] not in RELATIONS or parts[1] not in QUERY_KINDS:
        raise ValueError(
            f"{query_type!r} is not '<relation>|<query type>|...' with relation in {RELATIONS} "
            f"and query type in {QUERY_KINDS}"
        )
    rest = parts[2:]
    tag = next((_PERSPECTIVE_TAGS[p] for p in rest if p in _PERSPECTIVE_TAGS), None)
    index = int(rest[-1]) if rest and rest[-1].isdigit() else None
    if parts[0] == "view-view":
        perspective = None
    else:
        perspective = tag or ("PC" if _VIEWER_AT_OBJECT.search(query) else "SP")
    return QueryKind(parts[0], parts[1], perspective, index)


def pattern_of(*paths: str) -> str | None:
    """``object-centric`` or ``view-centric`` from the first path naming one (``object_centric`` etc.)."""
    for path in paths:
        flat = path.lower().replace("_", "-")
        for pattern in PATTERNS:
            if pattern in flat:
                return pattern
    return None


def distance_level(folder_path: str) -> int | None:
    """Return the ``level_<k>`` distance level in a frame-set path (App. B.2), or None."""
    found = _LEVEL.findall(folder_path)
    return int(found[-1]) if found else None


def room_type(folder_path: str) -> str | None:
    """Return the room type a path component names (Bathroom, Bedroom, DiningRoom, Kitchen, LivingRoom)."""
    for part in PurePath(folder_path).parts:
        key = part.lower().replace("_", "").replace("-", "").replace(" ", "")
        if key in ROOM_TYPES:
            return ROOM_TYPES[key]
    return None


def query_words(query_type: str) -> str:
    """Return a ``query_type`` in the paper's words (Table 5), templates numbered from 1 as Table 6 does.

    The official index is 0-based within a Table 6 row (``ground_truth_generation.py``):
    ``view-object|relative_distance|perspective_changing|1`` → ``View–Object · Relative Distance (PC) ·
    template 2``, the row's second template.

    A key that is not ``<relation>|<query type>|...`` comes back with spaces for ``_`` (never raises).
    """
    parts = normalize_query_type(query_type).split("|")
    if len(parts) < 2 or parts[0] not in RELATION_WORDS or parts[1] not in KIND_WORDS:
        return query_type.replace("_", " ")
    tag = next((_PERSPECTIVE_TAGS[p] for p in parts[2:] if p in _PERSPECTIVE_TAGS), None)
    words = [RELATION_WORDS[parts[0]], KIND_WORDS[parts[1]] + (f" ({tag})" if tag else "")]
    if parts[-1].isdigit() and len(parts) > 2:
        words.append(f"template {int(parts[-1]) + 1}")
    return " · ".join(words)
