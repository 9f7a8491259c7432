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

Modules, one job each: ``model`` (poses, actions, routes, settings), ``world`` (the map with landmark
distance fields and "Go forward until"), ``starts`` (start poses and what they face), ``replay`` (replaying
actions, ambiguity of the turns), ``search`` (breadth-first shortest routes, choosing one per pair) and
``record`` (the route-file line).
"""

from spatialbench.synth.routes.model import (
    Action,
    Forward,
    PlannerSettings,
    Pose,
    Route,
    RouteStats,
    Turn,
)
from spatialbench.synth.routes.record import route_record
from spatialbench.synth.routes.replay import execute_route, is_unambiguous, turn_choices
from spatialbench.synth.routes.search import plan_route, plan_scene_routes, shortest_routes
from spatialbench.synth.routes.starts import facing, in_sight, start_poses
from spatialbench.synth.routes.world import RouteWorld

__all__ = [
    "Action",
    "Forward",
    "PlannerSettings",
    "Pose",
    "Route",
    "RouteStats",
    "RouteWorld",
    "Turn",
    "execute_route",
    "facing",
    "in_sight",
    "is_unambiguous",
    "plan_route",
    "plan_scene_routes",
    "route_record",
    "shortest_routes",
    "start_poses",
    "turn_choices",
]
