"""VSI-Bench generation from scene meta-information (Sec. 3.2, App. B.1, Table 3).

Public names: the task interface (``Candidate``, ``TaskResult``, ``TaskGenerator``, ``task_generator``,
``TASK_GENERATORS``), ``GenerationSettings``, the pipeline (``generate_vsibench``, ``run_generators``,
``assemble``), writers, and the route schema (``Route``, ``RouteStep``, ``route_candidate``,
``load_routes``, ``write_routes``). ``builtin_tasks()`` lists the built-in meta-info tasks in benchmark order
(``TASK_GENERATORS`` holds every task, built-in ones as lazy entries).
"""

from __future__ import annotations

from spatialbench.generate.vsi.base import (
    META_INFO_TASKS,
    TASK_GENERATORS,
    Candidate,
    TaskGenerator,
    TaskResult,
    task_generator,
)
from spatialbench.generate.vsi.pipeline import GeneratedBenchmark, assemble, generate_vsibench, run_generators
from spatialbench.generate.vsi.route import (
    Route,
    RouteError,
    RouteStep,
    load_routes,
    route_candidate,
    write_routes,
)
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.generate.vsi.writers import write_benchmark, write_jsonl, write_manifest, write_parquet


def builtin_tasks() -> tuple[str, ...]:
    """Return the names of the built-in meta-info tasks in benchmark order (nothing is imported)."""
    return tuple(META_INFO_TASKS)


__all__ = [
    "TASK_GENERATORS",
    "Candidate",
    "GeneratedBenchmark",
    "GenerationSettings",
    "Route",
    "RouteError",
    "RouteStep",
    "TaskGenerator",
    "TaskResult",
    "assemble",
    "builtin_tasks",
    "generate_vsibench",
    "load_routes",
    "route_candidate",
    "run_generators",
    "task_generator",
    "write_benchmark",
    "write_jsonl",
    "write_manifest",
    "write_parquet",
    "write_routes",
]
