"""Route search: breadth-first shortest routes from a start pose, and one unambiguous route per object pair.

Semantics and conventions: :mod:`spatialbench.synth.routes`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from spatialbench.synth.routes.model import (
    LATER_TURNS,
    TURNS,
    Action,
    Forward,
    PlannerSettings,
    Pose,
    Route,
    RouteStats,
    Turn,
)
from spatialbench.synth.routes.replay import is_unambiguous
from spatialbench.synth.routes.starts import facing_start_poses
from spatialbench.synth.routes.world import RouteWorld

# Official route questions begin "at X facing X" in 7 of 30 (VSI-Bench test set, route_planning).
START_FACING_SHARE = 7 / 30


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


def clear_routes(
    world: RouteWorld, start: str, goal: str, landmarks: Sequence[str], settings: PlannerSettings
) -> tuple[list[Route], str | None]:
    """Every acceptable shortest route from ``start`` to ``goal``, or none and the filter that removed them.

    A route starts at a start pose facing a landmark (:func:`facing_start_poses`), is a shortest route
    from it, has at least ``settings.min_moves`` moves and one turn, and its turns are unambiguous.

    Returns:
        (routes, None), or ([], reason) with the first filter that left no route.
    """
    poses = facing_start_poses(world, start, settings)
    if not poses:
        return [], "no start pose facing a landmark"
    middle = [name for name in landmarks if name not in (start, goal)]
    routes = [
        Route(start, faced, goal, pose, actions)
        for pose, faced in poses.items()
        for actions in shortest_routes(world, pose, goal, middle, settings)
    ]
    if not routes:
        return [], "no route within max moves"
    routes = [r for r in routes if settings.min_moves <= r.moves and r.turns]
    if not routes:
        return [], "too few moves or no turn"
    clear = [r for r in routes if is_unambiguous(world, r, settings)]
    return (clear, None) if clear else ([], "ambiguous turns")


def choose_route(routes: Sequence[Route], start: str, rng: np.random.Generator) -> Route:
    """Draw one route: a start pose among those of ``routes``, then one of that pose's routes.

    Where both forms are possible, the route faces the start object itself with ``START_FACING_SHARE``
    probability and another landmark otherwise (drawing poses alone faced the start object in about half
    of the demo's routes); a start facing only the start object is the fallback.
    """
    own = [r for r in routes if r.facing == start]
    if own and len(own) < len(routes):  # both forms possible: face the start object at the official rate
        routes = own if rng.random() < START_FACING_SHARE else [r for r in routes if r.facing != start]
    starts = sorted({r.start_pose for r in routes}, key=lambda p: (p.row, p.col, p.heading))
    chosen = starts[int(rng.integers(len(starts)))]
    of_pose = [r for r in routes if r.start_pose == chosen]
    return of_pose[int(rng.integers(len(of_pose)))]


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

    Candidates come from :func:`clear_routes`; ``rng`` picks one of them with :func:`choose_route`.
    """
    stats = stats if stats is not None else RouteStats()
    stats.candidates += 1
    routes, reason = clear_routes(world, start, goal, landmarks, settings)
    if reason is not None:
        stats.removed[reason] += 1
        return None
    return choose_route(routes, start, rng)


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
