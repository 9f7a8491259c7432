"""Route planning on a free-space map, replacing VSI-Bench's human route annotators (paper App. B.1).

The paper's annotators pick two unique objects as start and goal and describe a route between them in
"approximately two to five movements" built from two actions, "Go forward until [unique object]" and
"Turn [left / right / back]". Here a planner does the same on a top-down free-space grid.

Conventions (written once):

- The map is :class:`spatialbench.synth.freespace.FreeSpaceMap` (world frame, z up, metres; x grows with
  the column, y with the row); the robot's centre stands on its ``walkable`` cells, which keep a person's
  radius from every obstacle.
- A heading is an integer 0..3: the robot looks along +x, +y, -x, -y. "Turn left" adds one quarter turn
  counter-clockwise seen from above (+90 degrees about z), "turn right" subtracts one, "turn back" adds two.
- "Go forward until X" walks along the heading through walkable cells until the first cell whose distance
  to X's footprint is within ``step_tolerance`` of the closest approach on that ray (and within ``reach``);
  it fails when the closest approach is farther than ``reach`` or the walk is shorter than ``min_travel``.
- A move is one "Go forward" action; turns happen in place. Routes have 2 to 5 moves by default (the
  paper's "approximately two to five movements"; official routes have 1 to 5, with 1 to 4 turns).

Every route carries its execution semantics: :func:`execute_route` replays actions on the map, so a route
is correct iff its ground-truth actions reach the goal and every other turn choice does not.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from spatialbench.synth.freespace import FreeSpaceMap

# Official route questions begin "at X facing X" in 7 of 30 (VSI-Bench test set, route_planning).
START_FACING_SHARE = 7 / 30
# A landmark in plain sight counts as "faced" when its centroid lies within this angle of the heading.
FACING_CONE = np.radians(20)
# (d_row, d_col) of one step along each heading.
HEADING_VECTORS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))


class Turn(StrEnum):
    """A turn in place; the value is the official option text."""

    LEFT = "Turn Left"
    RIGHT = "Turn Right"
    BACK = "Turn Back"

    @property
    def quarter_turns(self) -> int:
        """Counter-clockwise quarter turns this turn applies to the heading."""
        return {Turn.LEFT: 1, Turn.RIGHT: 3, Turn.BACK: 2}[self]


TURNS: tuple[Turn, ...] = (Turn.LEFT, Turn.RIGHT, Turn.BACK)  # options may show any turn anywhere
# Official routes turn back only as the first action (a later "turn back" would retrace the last leg).
LATER_TURNS: tuple[Turn, ...] = (Turn.LEFT, Turn.RIGHT)


@dataclass(frozen=True)
class Pose:
    """Robot pose on the grid: cell (row, col) and heading 0..3."""

    row: int
    col: int
    heading: int

    def turned(self, turn: Turn) -> Pose:
        """Return the pose after turning in place."""
        return replace(self, heading=(self.heading + turn.quarter_turns) % 4)


@dataclass(frozen=True)
class Forward:
    """The action "Go forward until the {landmark}"."""

    landmark: str


Action = Turn | Forward


@dataclass(frozen=True)
class PlannerSettings:
    """Tolerances of the route semantics (metres) and the allowed number of moves."""

    reach: float = 0.8  # the robot "is at" an object within this distance of its footprint
    min_travel: float = 0.5  # a "Go forward" shorter than this is not a move
    step_tolerance: float = 0.05  # stop at the first cell this close to the closest approach
    min_moves: int = 2
    max_moves: int = 5


@dataclass(frozen=True)
class Route:
    """A planned route between two unique objects.

    Attributes:
        start, facing, goal: landmark names ("beginning at the {start} and facing the {facing}").
        start_pose: the robot's pose before the first action.
        actions: the ground-truth actions, the last one ``Forward(goal)``.
    """

    start: str
    facing: str
    goal: str
    start_pose: Pose
    actions: tuple[Action, ...]

    @property
    def turns(self) -> tuple[Turn, ...]:
        """The turns in order (the blanks of the question)."""
        return tuple(a for a in self.actions if isinstance(a, Turn))

    def with_turns(self, turns: Sequence[Turn]) -> tuple[Action, ...]:
        """Return the actions with each turn replaced by the corresponding entry of ``turns``."""
        it = iter(turns)
        return tuple(next(it) if isinstance(a, Turn) else a for a in self.actions)


@dataclass
class RouteStats:
    """How many candidate (start, goal) pairs each filter removed."""

    candidates: int = 0
    removed: Counter[str] = field(default_factory=Counter)


class RouteWorld:
    """The free-space map plus landmark footprints, with per-landmark distance fields cached.

    Args:
        free_map: the scene's free-space map (its ``walkable`` cells are where the robot may stand).
        footprints: landmark name -> footprint polygon (world xy, metres). Names must be unique
            descriptions (the planner only uses objects whose category is unique in the scene).
    """

    def __init__(self, free_map: FreeSpaceMap, footprints: Mapping[str, shapely.Geometry]) -> None:
        self.free_map = free_map
        self.walkable = free_map.walkable
        self.footprints = dict(footprints)
        rows, cols = np.indices(self.walkable.shape, dtype=np.float64)
        res = free_map.resolution
        points = shapely.points(
            free_map.origin[0] + (cols + 0.5) * res, free_map.origin[1] + (rows + 0.5) * res
        )
        self.distance: dict[str, NDArray[np.float64]] = {
            name: shapely.distance(poly, points) for name, poly in self.footprints.items()
        }

    def _on_grid(self, cell: tuple[int, int]) -> bool:
        return 0 <= cell[0] < self.walkable.shape[0] and 0 <= cell[1] < self.walkable.shape[1]

    def is_walkable(self, cell: tuple[int, int]) -> bool:
        """Return whether ``cell`` (row, col) lies on the grid and is walkable."""
        return self._on_grid(cell) and bool(self.walkable[cell])

    def ray(self, pose: Pose) -> list[tuple[int, int]]:
        """Free cells ahead of ``pose`` (excluding its own cell) until the first blocked cell."""
        d_row, d_col = HEADING_VECTORS[pose.heading]
        cells: list[tuple[int, int]] = []
        cell = (pose.row + d_row, pose.col + d_col)
        while self.is_walkable(cell):
            cells.append(cell)
            cell = (cell[0] + d_row, cell[1] + d_col)
        return cells

    def forward_until(self, pose: Pose, landmark: str, settings: PlannerSettings) -> Pose | None:
        """Walk ahead until ``landmark`` (module docstring); None when the walk is not a valid move.

        Raises:
            KeyError: ``landmark`` is not a known landmark.
        """
        field_ = self.distance[landmark]
        cells = self.ray(pose)
        if not cells:
            return None
        dists = np.array([field_[c] for c in cells])
        closest = float(dists.min())
        if closest > settings.reach:
            return None
        stop = int(np.argmax(dists <= min(closest + settings.step_tolerance, settings.reach)))
        if (stop + 1) * self.free_map.resolution < settings.min_travel:
            return None
        return Pose(cells[stop][0], cells[stop][1], pose.heading)

    def facing(self, pose: Pose) -> str | None:
        """Return the landmark ahead of ``pose``, or None.

        The landmark nearest to the cell that blocks the ray, if within 0.3 m; otherwise the landmark in
        plain sight (:meth:`in_sight`) whose centroid lies nearest to the heading, within ``FACING_CONE``.
        """
        d_row, d_col = HEADING_VECTORS[pose.heading]
        last = ([(pose.row, pose.col)] + self.ray(pose))[-1]
        blocked = (last[0] + d_row, last[1] + d_col)
        if self._on_grid(blocked):
            near = sorted((float(f[blocked]), name) for name, f in self.distance.items())
            if near and near[0][0] <= 0.3:
                return near[0][1]
        here = self.free_map.to_world(np.array([[pose.row, pose.col]]))[0]
        ahead = np.arctan2(d_row, d_col)
        in_view = []
        for name, poly in self.footprints.items():
            centroid = np.array(shapely.centroid(poly).coords[0])
            off = centroid - here
            angle = abs((np.arctan2(off[1], off[0]) - ahead + np.pi) % (2 * np.pi) - np.pi)
            if angle <= FACING_CONE and self.in_sight(here, centroid, name):
                in_view.append((angle, name))
        return min(in_view)[1] if in_view else None

    def in_sight(self, here: NDArray[np.float64], target: NDArray[np.float64], landmark: str) -> bool:
        """Whether the straight line from ``here`` to ``target`` (world xy) is unobstructed.

        It must cross only free floor until it comes within 0.3 m of ``landmark`` (``target`` lies in it).
        """
        length = float(np.linalg.norm(target - here))
        steps = np.linspace(0.0, 1.0, max(int(length / (self.free_map.resolution / 2)), 2))
        cells = np.floor(
            (here + steps[:, None] * (target - here) - self.free_map.origin) / self.free_map.resolution
        )
        rows, cols = cells[:, 1].astype(int), cells[:, 0].astype(int)
        inside = (rows >= 0) & (rows < self.walkable.shape[0]) & (cols >= 0) & (cols < self.walkable.shape[1])
        if not inside.all():
            return False
        near = self.distance[landmark][rows, cols] <= 0.3
        return bool((self.free_map.free[rows, cols] | near).all())

    def start_poses(self, start: str, settings: PlannerSettings) -> list[Pose]:
        """Return the poses at ``start``, four headings on each of its sides.

        A side's cell is the first free cell met walking out from the centroid along a heading; it must
        lie within ``reach`` of the footprint.
        """
        centroid = shapely.centroid(self.footprints[start])
        origin = self.free_map.to_cell(np.array([centroid.x, centroid.y]))
        field_ = self.distance[start]
        poses: list[Pose] = []
        for d_row, d_col in HEADING_VECTORS:
            cell = origin
            while not self.is_walkable(cell) and self._on_grid(cell) and field_[cell] <= settings.reach:
                cell = (cell[0] + d_row, cell[1] + d_col)
            if self.is_walkable(cell) and field_[cell] <= settings.reach:
                poses.extend(Pose(cell[0], cell[1], h) for h in range(4))
        return poses


def execute_route(
    world: RouteWorld, start: Pose, actions: Iterable[Action], settings: PlannerSettings
) -> Pose | None:
    """Replay actions from ``start``; the final pose, or None when a "Go forward" cannot be carried out.

    A route reaches its goal iff this returns a pose and the last action is ``Forward(goal)``.
    """
    pose: Pose | None = start
    for action in actions:
        if pose is None:
            return None
        pose = (
            pose.turned(action)
            if isinstance(action, Turn)
            else world.forward_until(pose, action.landmark, settings)
        )
    return pose


def turn_choices(n_turns: int) -> list[tuple[Turn, ...]]:
    """Every turn sequence of ``n_turns`` turns (any option of the question may show any of them)."""
    return list(itertools.product(TURNS, repeat=n_turns))


def is_unambiguous(world: RouteWorld, route: Route, settings: PlannerSettings) -> bool:
    """Return whether the ground-truth turns are the only turn choice whose replay reaches the goal."""
    for turns in turn_choices(len(route.turns)):
        if turns != route.turns and execute_route(world, route.start_pose, route.with_turns(turns), settings):
            return False
    return True


def _expand(
    world: RouteWorld, pose: Pose, first: bool, landmarks: Sequence[str], settings: PlannerSettings
) -> Iterable[tuple[tuple[Action, ...], Pose, str]]:
    """One move from ``pose``: an optional turn, then "Go forward until" each landmark that works."""
    turns: tuple[Turn | None, ...] = (None, *TURNS) if first else LATER_TURNS
    for turn in turns:
        turned = pose if turn is None else pose.turned(turn)
        for name in landmarks:
            end = world.forward_until(turned, name, settings)
            if end is not None:
                prefix: tuple[Action, ...] = () if turn is None else (turn,)
                yield (*prefix, Forward(name)), end, name


def shortest_routes(
    world: RouteWorld, start_pose: Pose, goal: str, landmarks: Sequence[str], settings: PlannerSettings
) -> list[tuple[Action, ...]]:
    """All action sequences with the fewest moves from ``start_pose`` to ``goal`` (breadth-first).

    Intermediate moves go until one of ``landmarks`` (each at most once, never the goal); the last goes
    until ``goal``. Returns an empty list when no route has at most ``settings.max_moves`` moves.
    """
    frontier: list[tuple[Pose, tuple[Action, ...]]] = [(start_pose, ())]
    seen = {start_pose}
    targets = [*landmarks, goal]
    for _ in range(settings.max_moves):
        found: list[tuple[Action, ...]] = []
        next_frontier: list[tuple[Pose, tuple[Action, ...]]] = []
        for pose, done in frontier:
            used = {a.landmark for a in done if isinstance(a, Forward)}
            options = [t for t in targets if t not in used]
            for actions, end, name in _expand(world, pose, not done, options, settings):
                if name == goal:
                    found.append(done + actions)
                elif end not in seen:
                    seen.add(end)
                    next_frontier.append((end, done + actions))
        if found:
            return found
        frontier = next_frontier
    return []


def plan_route(
    world: RouteWorld,
    start: str,
    goal: str,
    landmarks: Sequence[str],
    rng: np.random.Generator,
    settings: PlannerSettings,
    stats: RouteStats | None = None,
) -> Route | None:
    """Plan one unambiguous route from ``start`` to ``goal``, or None (reason counted in ``stats``).

    Start poses are the four headings on each side of ``start`` (:meth:`RouteWorld.start_poses`); a pose
    needs a landmark ahead to be "facing". ``rng`` draws a start pose among those with an unambiguous
    shortest route, then one of its routes. Where both forms are possible, the route faces the start
    object itself with ``START_FACING_SHARE`` probability and another landmark otherwise (drawing poses
    alone faced the start object in about half of the demo's routes); a start facing only the start
    object is the fallback.
    """
    stats = stats if stats is not None else RouteStats()
    stats.candidates += 1
    facing = {p: world.facing(p) for p in world.start_poses(start, settings)}
    poses = [(p, f) for p, f in facing.items() if f is not None]
    if not poses:
        stats.removed["no start pose facing a landmark"] += 1
        return None
    middle = [name for name in landmarks if name not in (start, goal)]
    routes = [
        Route(start, facing, goal, pose, actions)
        for pose, facing in poses
        for actions in shortest_routes(world, pose, goal, middle, settings)
    ]
    if not routes:
        stats.removed["no route within max moves"] += 1
        return None
    routes = [r for r in routes if settings.min_moves <= len(r.actions) - len(r.turns) and r.turns]
    if not routes:
        stats.removed["too few moves or no turn"] += 1
        return None
    clear = [r for r in routes if is_unambiguous(world, r, settings)]
    if not clear:
        stats.removed["ambiguous turns"] += 1
        return None
    own = [r for r in clear if r.facing == start]
    if own and len(own) < len(clear):  # both forms possible: face the start object at the official rate
        clear = own if rng.random() < START_FACING_SHARE else [r for r in clear if r.facing != start]
    starts = sorted({r.start_pose for r in clear}, key=lambda p: (p.row, p.col, p.heading))
    chosen = starts[int(rng.integers(len(starts)))]
    of_pose = [r for r in clear if r.start_pose == chosen]
    return of_pose[int(rng.integers(len(of_pose)))]


def plan_scene_routes(
    world: RouteWorld,
    rng: np.random.Generator,
    settings: PlannerSettings | None = None,
    max_routes: int | None = None,
    stats: RouteStats | None = None,
) -> list[Route]:
    """Plan routes between every ordered pair of landmarks of ``world`` (in a seeded random order).

    Returns at most ``max_routes`` routes, one per (start, goal) pair that yields an unambiguous route.
    """
    settings = settings or PlannerSettings()
    names = sorted(world.footprints)
    pairs = [(a, b) for a in names for b in names if a != b]
    routes: list[Route] = []
    for index in rng.permutation(len(pairs)):
        if max_routes is not None and len(routes) >= max_routes:
            break
        start, goal = pairs[int(index)]
        route = plan_route(world, start, goal, names, rng, settings, stats)
        if route is not None:
            routes.append(route)
    return routes


def route_record(route: Route, scene_id: str, dataset: str) -> dict[str, Any]:
    """Return the route in the route-file format of :mod:`spatialbench.generate.vsi.route` (one JSON line).

    Landmarks are named with "the" as the official questions do ("Go forward until the sofa"); the
    replay data (start pose, planner semantics) goes into ``metadata``.
    """
    steps: list[dict[str, str]] = [
        {"turn": a.name.lower()} if isinstance(a, Turn) else {"forward": f"the {a.landmark}"}
        for a in route.actions
    ]
    pose = route.start_pose
    return {
        "scene_id": scene_id,
        "dataset": dataset,
        "start": f"the {route.start}",
        "facing": f"the {route.facing}",
        "goal": f"the {route.goal}",
        "steps": steps,
        "metadata": {
            "start_pose": [pose.row, pose.col, pose.heading],
            "planner": "spatialbench.synth.routes",
        },
    }
