"""Read a cognitive map out of a model's answer; never raises (model output is untrusted).

The prompt (App. B.4) asks for ``{"category name": [(x_1, y_1), ...], ...}``, which is not JSON (tuples).
Rules, in order:

1. Only the text after the last ``</think>`` counts, at most its last 32 KB.
2. Candidates: every fenced code block, then every balanced ``{...}`` in the text; the *last* candidate
   holding at least one point wins (an echoed format example holds none).
3. A candidate is read as JSON after tuples become lists, single quotes double quotes and trailing commas
   are dropped; failing that, key by key (``"name": [...]`` or ``name: (...)``), numbers pulled from the
   bracketed value.
4. A value is a list of points, one point (``[x, y]`` or ``{"x": .., "y": ..}``) or a flat list of an even
   number of coordinates; anything else, a non-finite number or an odd count is a reported problem and
   the value (or point) is dropped.
5. Keys match the requested categories case- and space-insensitively (the map uses the requested
   spelling); keys that match none are reported as ``unknown`` and left out of the map; requested
   categories without a point are ``missing``. The same category twice: the points are joined.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Point = tuple[float, float]

_FENCE = re.compile(r"```[a-zA-Z]*\s*\n?(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([\]}])")
# a key starts with a letter and is at most 80 characters (bounded, so a long run of prose stays linear)
_KEY = re.compile(r"""["']?(?P<key>[^\W\d][^"'{}\[\]():,\n]{0,79}?)["']?[ \t]{0,8}:""")
_MAX_CHARS = 32_768  # only the last 32 KB count, as for answers (scoring/response_text.py)
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


@dataclass(frozen=True)
class ParsedMap:
    """A cognitive map read from a response.

    Attributes:
        points: category -> its points (x, y) in grid units, in the order given; only known categories
            when ``categories`` were given.
        unknown: keys that match no requested category (left out of ``points``).
        missing: requested categories with no point.
        problems: what was dropped or could not be read, one line each (empty for a clean map).
    """

    points: dict[str, tuple[Point, ...]]
    unknown: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()

    @property
    def found(self) -> bool:
        """True when the response held at least one point of a wanted category."""
        return bool(self.points)


def _balanced_objects(text: str) -> list[str]:
    spans, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char == "{":
            if depth == 0:
                start = i
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                spans.append(text[start : i + 1])
    return spans


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as its (key, value) pairs, so a repeated key keeps both values."""


def _as_json(candidate: str) -> dict[str, Any] | None:
    text = candidate.replace("(", "[").replace(")", "]")
    if '"' not in text:
        text = text.replace("'", '"')
    text = _TRAILING_COMMA.sub(r"\1", text)
    try:
        parsed = json.loads(text, object_pairs_hook=_Pairs)
    except (ValueError, RecursionError):
        return None
    if not isinstance(parsed, _Pairs):
        return None
    merged: dict[str, Any] = {}
    for key, value in parsed:
        merged.setdefault(key, []).append(value)
    return merged


def _by_key(candidate: str) -> dict[str, Any]:
    body = candidate[1:-1]
    keys = list(_KEY.finditer(body))
    found: dict[str, Any] = {}
    ends = [k.start() for k in keys[1:]] + [len(body)] if keys else []
    for match, end in zip(keys, ends, strict=True):
        value = body[match.end() : end]
        numbers = [float(n) for n in _NUMBER.findall(value)]
        found.setdefault(match["key"].strip(), []).append(numbers)
    return found


def _points(value: Any, key: str, problems: list[str]) -> list[Point]:
    """Points of one value (see rule 4); appends to ``problems`` what it drops."""
    if isinstance(value, _Pairs):
        fields = dict(value)
        value = [fields.get("x"), fields.get("y")]
    if not isinstance(value, list):
        problems.append(f"{key!r}: value {value!r} is not a list of points")
        return []
    if value and all(isinstance(v, list) for v in value):
        return [p for v in value for p in _points(v, key, problems)]
    try:
        numbers = [float(v) for v in value]
    except (TypeError, ValueError, OverflowError):
        problems.append(f"{key!r}: value {value!r} holds a non-number")
        return []
    if len(numbers) % 2 or not numbers:
        problems.append(f"{key!r}: {len(numbers)} coordinates (need pairs)")
        return []
    points = [(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
    kept = [p for p in points if math.isfinite(p[0]) and math.isfinite(p[1])]
    if len(kept) < len(points):
        problems.append(f"{key!r}: {len(points) - len(kept)} non-finite point(s) dropped")
    return kept


def _norm(name: str) -> str:
    return " ".join(name.lower().replace("_", " ").split())


def _candidate_points(raw: dict[str, Any]) -> tuple[dict[str, list[Point]], list[str]]:
    problems: list[str] = []
    points: dict[str, list[Point]] = {}
    for key, values in raw.items():
        pts = [p for v in values for p in _points(v, key, problems)]
        if pts:
            points.setdefault(str(key), []).extend(pts)
    return points, problems


def _read(text: str) -> tuple[dict[str, list[Point]], list[str]]:
    candidates = [m.group(1) for m in _FENCE.finditer(text)]
    candidates = [o for c in candidates for o in _balanced_objects(c)] + _balanced_objects(text)
    best: dict[str, list[Point]] = {}
    best_problems = ["no {...} map in the response"] if not candidates else []
    for candidate in candidates:
        raw = _as_json(candidate)
        how: list[str] = []
        if raw is None:
            raw, how = _by_key(candidate), ["map is not JSON; read key by key"]
        points, problems = _candidate_points(raw)
        if points:
            best, best_problems = points, how + problems
        elif not best:
            best_problems = ["no point in any {...} of the response", *how, *problems]
    return best, best_problems


def parse_map(text: str, categories: Sequence[str] | None = None) -> ParsedMap:
    """Read the cognitive map in ``text`` (rules in the module docstring); never raises.

    Args:
        text: the model's response (any string).
        categories: the categories of interest asked for; None keeps every key as written.

    Returns:
        The map, with unknown keys, missing categories and problems reported.
    """
    if not isinstance(text, str):
        return ParsedMap(points={}, missing=tuple(categories or ()), problems=("response is not text",))
    text = text.rsplit("</think>", 1)[-1][-_MAX_CHARS:]
    points, problems = _read(text)
    wanted = {_norm(c): c for c in categories} if categories is not None else None
    kept: dict[str, list[Point]] = {}
    unknown: list[str] = []
    for key, pts in points.items():
        name = key.strip() if wanted is None else wanted.get(_norm(key))
        if name is None:
            unknown.append(key)
        else:
            kept.setdefault(name, []).extend(pts)
    missing = [c for c in (categories or ()) if c not in kept]
    return ParsedMap(
        points={k: tuple(v) for k, v in kept.items()},
        unknown=tuple(unknown),
        missing=tuple(missing),
        problems=tuple(problems),
    )
