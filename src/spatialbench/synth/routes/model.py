"""The records of route planning: headings, turns, poses, actions, planned routes, settings and counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

# (d_row, d_col) of one step along each heading (0: +x, 1: +y, 2: -x, 3: -y).
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

    @property
    def moves(self) -> int:
        """Number of "Go forward" actions."""
        return len(self.actions) - len(self.turns)

    def with_turns(self, turns: Sequence[Turn]) -> tuple[Action, ...]:
        """Return the actions with each turn replaced by the corresponding entry of ``turns``."""
        it = iter(turns)
        return tuple(next(it) if isinstance(a, Turn) else a for a in self.actions)


@dataclass
class RouteStats:
    """How many candidate (start, goal) pairs each filter removed."""

    candidates: int = 0
    removed: Counter[str] = field(default_factory=Counter)
