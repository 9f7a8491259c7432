"""Replaying a route's actions on the map, and whether its turns are the only ones that reach the goal."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from spatialbench.synth.routes.model import TURNS, Action, PlannerSettings, Pose, Route, Turn
from spatialbench.synth.routes.world import RouteWorld


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
