"""The synthetic VSI-Bench benchmark: rendered procedural scenes plus all ten question types.

Public names: ``write_synthetic_benchmark`` (the whole folder, see :mod:`.benchmark`), ``check_routes_file``,
``synthetic_settings``, ``rendered_entries``, and the two tasks that need a rendered scene (``route_task``,
``route_world``, ``appearance_timeline``, see :mod:`.tasks`). ``spatialbench generate synthetic`` and
``spatialbench demo`` both call it.
"""

from spatialbench.generate.synthetic.benchmark import (
    RENDERED_TASK_CAPS,
    check_routes_file,
    rendered_entries,
    synthetic_settings,
    write_synthetic_benchmark,
)
from spatialbench.generate.synthetic.tasks import appearance_timeline, route_task, route_world

__all__ = [
    "RENDERED_TASK_CAPS",
    "appearance_timeline",
    "check_routes_file",
    "rendered_entries",
    "route_task",
    "route_world",
    "synthetic_settings",
    "write_synthetic_benchmark",
]
