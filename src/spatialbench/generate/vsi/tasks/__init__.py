"""Built-in VSI-Bench task generators, one module per task; importing this package registers them."""

from spatialbench.generate.vsi.tasks import (  # noqa: F401  (imported to register)
    abs_distance,
    counting,
    object_size,
    rel_direction,
    rel_distance,
    room_size,
)

BUILTIN_TASKS = (
    "object_counting",
    "object_abs_distance",
    "object_size_estimation",
    "room_size_estimation",
    "object_rel_distance",
    "object_rel_direction_easy",
    "object_rel_direction_medium",
    "object_rel_direction_hard",
)
