"""MindCube's cognitive-map metrics (github mll-lab-nu/MindCube ``src/evaluation/cogmap/``, commit 6d8fd9a).

A map is JSON in one of two formats: *augmented* (``{"objects": [{"name", "position": [x, y], "facing"}],
"views": [...]}``) or *plain* (``{"sofa": {"position": [x, y], "facing": "up"}}``). :func:`read_map` is the
official ``extract_json_from_text`` (the text from the first ``{`` to the last ``}``; if that is not JSON,
its clean-up: comments and newlines dropped, bare keys quoted, trailing commas dropped, else the
``"name": {...}`` pairs it finds). :func:`map_similarity` is ``calculate_extended_cogmap_similarity``:

* *parsable*: a non-empty JSON object; *valid format*: both maps pass ``validate_cogmap_format`` (every
  object a name and a position of two numbers, a facing among the listed words when given); *valid
  graph*: both have an object;
* *coverage*: share of the ground truth's objects (a plain prediction: its ``objects`` only, not its views)
  the prediction names;
* for each of six rotations of the prediction (identity, 90/180/270° about z, 90° about x and about y,
  positions and facings turned as the official tables do) the relation of every ordered pair of common
  objects (right / left / down / up by the larger of |dx|, |dy|; ``inner`` / ``outer`` from the facings
  when closer than 0.5): *directional* similarity = share of the ground truth's relations the prediction
  has, *facing* similarity = share of the ground truth's facings it has (1.0 when none is given),
  *overall* = 0.7 directional + 0.3 facing; the rotation with the largest overall (strictly larger than
  the ones before, starting at 0) is kept with its *isomorphic* flag (every ground-truth relation
  equal, which needs every ground-truth object).

Where this differs from the official code: it never raises. A plain map with an empty list as an
object's value is an invalid format here (the official ``truncate_position_list_into_one`` raises
IndexError); an object whose name is a list or an object is skipped (official: TypeError).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

FACINGS = frozenset({
    "up", "down", "left", "right", "inner", "outer", "top", "bottom", "north", "south", "east", "west",
    "front", "back", "into", "out", "inside", "outside", "forward", "backward",
})
_SYNONYMS = {
    "top": "up", "bottom": "down", "north": "up", "south": "down", "east": "right", "west": "left",
    "front": "inner", "back": "outer", "into": "inner", "out": "outer", "inside": "inner",
    "outside": "outer", "forward": "inner", "backward": "outer",
}
_TURN_Z = {"up": "urdl", "right": "rdlu", "down": "dlur", "left": "lurd"}
_LETTER = {"u": "up", "r": "right", "d": "down", "l": "left"}
_TURN_X = {"up": "inner", "down": "outer", "inner": "down", "outer": "up"}
_TURN_Y = {"left": "inner", "right": "outer", "inner": "right", "outer": "left"}
Objects = dict[str, tuple[np.ndarray, str | None]]


@dataclass(frozen=True)
class MapSimilarity:
    """One predicted map against its ground truth (module docstring; similarities in [0, 1])."""

    parsable: bool = False
    valid_format: bool = False
    valid_graph: bool = False
    coverage: float = 0.0
    isomorphic: bool = False
    directional: float = 0.0
    facing: float = 0.0
    overall: float = 0.0
    rotation: str | None = None


def read_map(text: str | None) -> Any:
    """Return the JSON object of ``text`` as the official ``extract_json_from_text`` reads it (None: none)."""
    if not text:
        return None
    found = re.search(r"\{[\s\S]*\}", text)
    if not found:
        return None
    try:
        return json.loads(found.group(0))
    except json.JSONDecodeError:
        return _cleaned(found.group(0))


def _quoted(text: str) -> str:
    text = re.sub(r"(\s*?)(\w+)(\s*?):", r'\1"\2"\3:', text)
    return re.sub(r",\s*]", "]", re.sub(r",\s*}", "}", text))


def _cleaned(text: str) -> Any:
    """``clean_and_parse_json``: comments, newlines, bare keys, trailing commas; else the named pairs."""
    try:
        return json.loads(_quoted(re.sub(r"[\n\r\t]", " ", re.sub(r"//.*", "", text))))
    except json.JSONDecodeError:
        pass
    result = {}
    for key, value in re.findall(r'"([^"]+)":\s*{([^{}]*(?:{[^{}]*}[^{}]*)*)}', text):
        try:
            result[key] = json.loads(_quoted("{" + value + "}"))
        except json.JSONDecodeError:
            continue
    return result or None


def normalize_facing(facing: Any) -> str | None:
    """``normalize_facing``: the first of a list, lower case, synonyms mapped (``north`` -> ``up``)."""
    if isinstance(facing, list):
        facing = facing[0] if facing else None
    if not isinstance(facing, str) or not facing.strip():
        return None
    word = facing.lower().strip()
    return _SYNONYMS.get(word, word)


def _valid_position(position: Any) -> bool:
    if not isinstance(position, list) or len(position) < 2:
        return False
    try:
        float(position[0]), float(position[1])
    except (TypeError, ValueError):
        return False
    return True


def _valid_facing(facing: Any) -> bool:
    if facing is None or (isinstance(facing, list) and not facing):
        return True
    facing = facing[0] if isinstance(facing, list) else facing
    return isinstance(facing, str) and facing.lower().strip() in FACINGS


def _valid_entry(entry: Any, named: bool) -> bool:
    if not isinstance(entry, dict) or (named and "name" not in entry) or "position" not in entry:
        return False
    return _valid_position(entry["position"]) and ("facing" not in entry or _valid_facing(entry["facing"]))


def is_augmented(cogmap: Any) -> bool:
    """Whether ``cogmap`` is the augmented format (an ``objects`` list), official ``is_complex_format``."""
    return isinstance(cogmap, dict) and isinstance(cogmap.get("objects"), list)


def valid_format(cogmap: Any) -> bool:
    """``validate_cogmap_format`` (a plain map's list values already cut to their first element)."""
    if not isinstance(cogmap, dict):
        return False
    if not is_augmented(cogmap):
        return all(_valid_entry(v, named=False) for v in cogmap.values())
    views = cogmap.get("views", [])
    return (all(_valid_entry(o, named=True) for o in cogmap["objects"])
            and ("views" not in cogmap or isinstance(views, list))
            and all(_valid_entry(v, named=True) for v in (views if isinstance(views, list) else [])))


def _point(entry: Mapping[str, Any]) -> tuple[np.ndarray, str | None]:
    position = entry.get("position")
    try:
        xy = [float(position[0]), float(position[1])] if isinstance(position, list) and len(position) >= 2 \
            else [0.0, 0.0]
    except (TypeError, ValueError):
        xy = [0.0, 0.0]
    return np.array(xy, dtype=float), normalize_facing(entry.get("facing"))


def objects_of(cogmap: Mapping[str, Any]) -> Objects:
    """``extract_objects_with_extended_info``: name -> (position, facing); views after objects."""
    if "objects" not in cogmap:
        return {str(k): _point(v) for k, v in cogmap.items() if isinstance(v, dict)}
    entries = [*cogmap.get("objects", []), *cogmap.get("views", [])]
    return {e["name"]: _point(e) for e in entries
            if isinstance(e, dict) and "name" in e and not isinstance(e["name"], list | dict)}


def _direction(first: tuple[np.ndarray, str | None], second: tuple[np.ndarray, str | None]) -> str | None:
    """``get_extended_direction``: right/left/down/up, or inner/outer when closer than 0.5."""
    (p1, f1), (p2, f2) = first, second
    dx, dy = p2[0] - p1[0], p2[1] - p1[1]
    if np.sqrt(dx**2 + dy**2) < 0.5:
        if f1 == "inner" or f2 == "outer":
            return "inner"
        if f1 == "outer" or f2 == "inner":
            return "outer"
        return "inner" if np.linalg.norm(p1 - p2) < 0.2 else None
    if abs(dx) > abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"


def relations(data: Objects, names: list[str]) -> dict[str, dict[str, str | None]]:
    """``build_comprehensive_relation_matrix``: the direction of every ordered pair of ``names``."""
    return {a: {b: _direction(data[a], data[b]) if a in data and b in data else None
                for b in names if b != a} for a in names}


def _turn_z(angle: int) -> Callable[[str | None], str | None]:
    def turn(facing: str | None) -> str | None:
        return _LETTER[_TURN_Z[facing][angle // 90 % 4]] if facing in _TURN_Z else facing
    return turn


def rotations() -> list[tuple[str, np.ndarray, Callable[[str | None], str | None]]]:
    """``get_rotation_matrices``: (name, 3x3 matrix, facing map) of the six rotations, official order."""
    turns: list[tuple[str, np.ndarray, Callable[[str | None], str | None]]] = [
        ("identity", np.eye(3), lambda f: f)]
    for angle in (90, 180, 270):
        rad = np.radians(angle)
        c, s = np.cos(rad), np.sin(rad)
        turns.append((f"z_rot_{angle}", np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]), _turn_z(angle)))
    turns.append(("x_rot_90", np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]]),
                  lambda f: _TURN_X.get(f, f) if f else f))
    turns.append(("y_rot_90", np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]]),
                  lambda f: _TURN_Y.get(f, f) if f else f))
    return turns


def _rotated(data: Objects, matrix: np.ndarray, turn: Callable[[str | None], str | None]) -> Objects:
    return {n: ((matrix @ np.append(p[:2], 0.0).reshape(3))[:2], turn(f)) for n, (p, f) in data.items()}


def _plain_values(cogmap: dict[str, Any]) -> dict[str, Any] | None:
    """``trucate_object_position``: a list value -> its first element; None for an empty list (see above)."""
    if any(isinstance(v, list) and not v for v in cogmap.values()):
        return None
    return {k: v[0] if isinstance(v, list) else v for k, v in cogmap.items()}


def map_similarity(generated: Any, grounded: Any) -> MapSimilarity:
    """Compare a predicted map with its ground truth as ``calculate_extended_cogmap_similarity`` does."""
    if not generated or not grounded or not isinstance(generated, dict) or not isinstance(grounded, dict):
        return MapSimilarity()
    plain = generated if is_augmented(generated) else _plain_values(generated)
    if plain is None or not (valid_format(plain) and valid_format(grounded)):
        return MapSimilarity(parsable=True)
    gen, truth = objects_of(plain), objects_of(grounded)
    if not gen or not truth:
        return MapSimilarity(parsable=True, valid_format=True)
    names = set(truth)
    if "views" not in plain and "objects" in grounded:  # a map without views is compared on objects only
        names = {o["name"] for o in grounded.get("objects", []) if "name" in o}
    common = names & set(gen)
    coverage = len(common) / len(names) if names else 0.0
    if not common:
        return MapSimilarity(True, True, True, coverage)
    return _best_rotation(gen, truth, sorted(names, key=str), common, coverage)


def _best_rotation(gen: Objects, truth: Objects, names: list[str], common: set[str],
                   coverage: float) -> MapSimilarity:
    """Try the six rotations; keep the first with the largest overall similarity (official loop)."""
    truth_rel = relations(truth, names)
    best = MapSimilarity(True, True, True, coverage)
    for name, matrix, turn in rotations():
        turned = _rotated(gen, matrix, turn)
        gen_rel = relations(turned, list(gen))
        isomorphic = all(a in gen_rel and all(b in gen_rel[a] and gen_rel[a][b] == r for b, r in rel.items())
                         for a, rel in truth_rel.items())
        pairs = [(a, b) for a in names for b in names
                 if a != b and a in common and b in common and truth_rel[a][b] is not None]
        directional = sum(gen_rel[a][b] == truth_rel[a][b] for a, b in pairs) / len(pairs) if pairs else 0.0
        faced = [n for n in names if n in common and truth[n][1]]
        facing = sum(turned[n][1] == truth[n][1] for n in faced) / len(faced) if faced else 1.0
        overall = 0.7 * directional + 0.3 * facing
        if overall > best.overall:
            best = MapSimilarity(True, True, True, coverage, isomorphic, directional, facing, overall, name)
    return best
