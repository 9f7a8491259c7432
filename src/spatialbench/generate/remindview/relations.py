"""Horizontal directions and distances between viewpoints and objects (ReMindView-Bench App. B.3).

A *viewer* is a position (3,) and a heading (radians from +x, counter-clockwise, in the XY plane): a
camera (its optical axis projected on the floor) or an object facing its front (local +y). The direction
of a point relative to a viewer is one of eight 45° bins of the angle between the heading and the XY
offset, centred on front (0°), front-right (−45°), right, back-right, back, back-left, left, front-left
(+45°). Distances are 3D between centres (metres). Turning left / right / back adds +90° / −90° / 180°
to the heading.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from shapely.geometry import Polygon

#: clockwise from front: bin k is centred on −45°·k
DIRECTIONS = ("front", "front-right", "right", "back-right", "back", "back-left", "left", "front-left")
#: the official code's turns; "back" is the 180° one
TURNS = {"left": np.pi / 2, "right": -np.pi / 2, "back": np.pi}


@dataclass(frozen=True)
class Viewer:
    """Where a question puts the observer: ``position`` (3,) metres, ``heading`` radians."""

    position: NDArray[np.float64]
    heading: float

    def turned(self, turn: str) -> Viewer:
        """Return the viewer after turning ``turn`` (``left``, ``right``, ``back``) on the spot."""
        return Viewer(self.position, self.heading + TURNS[turn])

    def at(self, position: NDArray[np.float64]) -> Viewer:
        """Return the same heading from another position (relations "of <object_2>" in the viewer's frame)."""
        return Viewer(position, self.heading)


@dataclass(frozen=True)
class Bearing:
    """A direction bin and how far (degrees) the angle is from the nearest bin edge, and the XY distance."""

    direction: str
    margin_deg: float
    horizontal: float


def bearing(viewer: Viewer, point: NDArray[np.float64]) -> Bearing:
    """Direction bin of ``point`` (3,) relative to ``viewer``."""
    offset = np.asarray(point[:2], dtype=np.float64) - viewer.position[:2]
    angle = np.degrees(np.arctan2(offset[1], offset[0]) - viewer.heading)
    clockwise = (-angle) % 360.0
    index = int(np.floor((clockwise + 22.5) / 45.0)) % 8
    within = (clockwise + 22.5) % 45.0
    return Bearing(DIRECTIONS[index], float(min(within, 45.0 - within)), float(np.hypot(*offset)))


def components(direction: str) -> set[str]:
    """``front-left`` → {front, left}; ``back`` → {back}."""
    return set(direction.split("-"))


def shares_component(a: str, b: str) -> bool:
    """Whether two direction labels share a component (``right`` and ``front-right`` do)."""
    return bool(components(a) & components(b))


def overlapping(a: str, b: str) -> bool:
    """Return whether two direction labels are the same or adjacent bins (``right``, ``front-right``)."""
    steps = abs(DIRECTIONS.index(a) - DIRECTIONS.index(b)) % 8
    return min(steps, 8 - steps) <= 1


def isolated(choices: list[str]) -> list[str]:
    """Return the choices that share no component with any other choice."""
    return [c for c in choices if not any(shares_component(c, o) for o in choices if o != c)]


def gives_away(answer: str, choices: list[str]) -> bool:
    """Return True when the answer is the only choice sharing no component with the others."""
    return isolated(choices) == [answer]


def distance(a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    """3D Euclidean distance between two (3,) points, metres."""
    return float(np.linalg.norm(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)))


def footprints_overlap(a: NDArray[np.float64], b: NDArray[np.float64], tolerance_m2: float = 1e-4) -> bool:
    """Return whether two (4, 2) floor footprints overlap by over ``tolerance_m2`` (vertical pair, B.3)."""
    return bool(Polygon(a).intersection(Polygon(b)).area > tolerance_m2)
