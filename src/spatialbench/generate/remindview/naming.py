"""Names questions use for objects: the category, or "<colour> <category>" when the category repeats.

ReMindView-Bench names objects so one question never holds two of the same or similar name (App. B.3:
"brown sofa" and "black sofa" are never in one question). Here an object whose category no other seen
object of the frame set shares is named by its category; objects of a repeated category are named by the
colour of their largest part (nearest name of ``data/colors.json`` in CIE Lab) when every other seen
object of that category has a different colour name and differs by at least ``min_lab_distance``; the
others have no usable name and are not asked about.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
from numpy.typing import NDArray

from spatialbench.prompting.templates import read_json
from spatialbench.synth.scene import SynthObject


def lab(rgb: NDArray[np.float64]) -> NDArray[np.float64]:
    """Return CIE Lab (D65) of (..., 3) display sRGB values in [0, 1]."""
    rgb = np.asarray(rgb, dtype=np.float64)
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    matrix = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = linear @ matrix.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


@cache
def _palette() -> tuple[tuple[str, ...], NDArray[np.float64], float]:
    data = read_json(__package__, "data/colors.json")
    names = tuple(data["names"])
    return names, lab(np.array([data["names"][n] for n in names]) / 255.0), float(data["min_lab_distance"])


def object_colour(obj: SynthObject) -> NDArray[np.float64]:
    """Return the Lab colour of the object's largest part (as drawn: the renderer applies no gamma)."""
    part = max(obj.asset.parts, key=lambda p: float(p.mesh.area))
    return lab(np.asarray(part.color, dtype=np.float64))


def colour_name(colour: NDArray[np.float64]) -> str:
    """Return the nearest palette name of a Lab colour."""
    names, palette, _ = _palette()
    return names[int(np.argmin(np.linalg.norm(palette - colour, axis=1)))]


def question_names(seen: Sequence[SynthObject]) -> dict[int, str]:
    """Return instance id → the name questions may use, for the objects of ``seen`` that have one."""
    _, _, min_distance = _palette()
    names: dict[int, str] = {}
    for obj in seen:
        same = [o for o in seen if o.category == obj.category and o.instance_id != obj.instance_id]
        if not same:
            names[obj.instance_id] = obj.category
            continue
        colour = object_colour(obj)
        name = colour_name(colour)
        others = [object_colour(o) for o in same]
        if all(colour_name(c) != name and np.linalg.norm(c - colour) >= min_distance for c in others):
            names[obj.instance_id] = f"{name} {obj.category}"
    return names
