"""Benchmarks by name: one sub-package per benchmark, each exposing one :class:`BenchmarkSpec` (``SPEC``).

``BENCHMARKS`` lists every benchmark without importing any (lazy ``"module:attribute"`` entries); the first
:func:`get_benchmark` of a name imports its package. A new benchmark is one folder plus one line here (or
one ``BENCHMARKS.add`` from anywhere, as tests do). Every entry must be a ``BenchmarkSpec`` whose ``name`` is
the name it is registered under: a lazy entry that is not is one ``BrokenEntryError`` naming it, an ``add``
of one is refused.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.spec import BenchmarkSpec, RunDefaults
from spatialbench.records.rows import LoadedItems
from spatialbench.registry import Registry


def _check_spec(name: str, obj: object) -> None:
    """Refuse an entry that is not a :class:`BenchmarkSpec` named ``name`` (TypeError / ValueError)."""
    if not isinstance(obj, BenchmarkSpec):
        kind = "function" if inspect.isfunction(obj) else type(obj).__name__
        raise TypeError(f"is a {kind}, not a BenchmarkSpec")
    if obj.name != name:
        raise ValueError(f"its name is {obj.name!r}, not {name!r}")


BENCHMARKS: Registry[BenchmarkSpec] = Registry(
    "benchmark", check=_check_spec, entry_points="spatialbench.benchmarks"
)
BENCHMARKS.lazy("vsibench", "spatialbench.benchmarks.vsibench:SPEC")
BENCHMARKS.lazy("mmsi-video", "spatialbench.benchmarks.mmsi_video:SPEC")
BENCHMARKS.lazy("remindview", "spatialbench.benchmarks.remindview:SPEC")
BENCHMARKS.lazy("mmsi-bench", "spatialbench.benchmarks.mmsi_bench:SPEC")
BENCHMARKS.lazy("cvbench", "spatialbench.benchmarks.cvbench:SPEC")
BENCHMARKS.lazy("viewspatial", "spatialbench.benchmarks.viewspatial:SPEC")
BENCHMARKS.lazy("vsi-super-recall", "spatialbench.benchmarks.vsi_super:SPEC_RECALL")
BENCHMARKS.lazy("vsi-super-count", "spatialbench.benchmarks.vsi_super:SPEC_COUNT")
BENCHMARKS.lazy("vsi-super-count-streaming", "spatialbench.benchmarks.vsi_super:SPEC_STREAMING")
BENCHMARKS.lazy("mindcube", "spatialbench.benchmarks.mindcube:SPEC")
BENCHMARKS.lazy("site", "spatialbench.benchmarks.site:SPEC")
BENCHMARKS.lazy("blink", "spatialbench.benchmarks.blink:SPEC")
BENCHMARKS.lazy("3dsrbench", "spatialbench.benchmarks.threedsr:SPEC")
BENCHMARKS.lazy("embspatial", "spatialbench.benchmarks.embspatial:SPEC")
BENCHMARKS.lazy("revsi", "spatialbench.benchmarks.revsi:SPEC")


def get_benchmark(name: str) -> BenchmarkSpec:
    """Return the benchmark registered as ``name``; raises UnknownNameError with suggestions."""
    return BENCHMARKS.get(name)


def load_items(name: str, path: str | Path, **options: Any) -> LoadedItems:
    """Load benchmark ``name`` from ``path``: ``get_benchmark(name).load_items(path, **options)``.

    Raises:
        UnknownNameError: unknown benchmark. FileNotFoundError / ValueError: see
            :meth:`BenchmarkSpec.load_items`.
    """
    return get_benchmark(name).load_items(path, **options)


__all__ = ["BENCHMARKS", "BenchmarkSpec", "RunDefaults", "get_benchmark", "load_items"]
