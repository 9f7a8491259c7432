"""The checks ``compare`` makes first: one benchmark, unique names, a known reference and subset."""

from __future__ import annotations

from collections.abc import Sequence

from spatialbench.benchmarks.spec import BenchmarkSpec, Subset
from spatialbench.errors import SpatialBenchError
from spatialbench.runs.folder import RunFolder


class CompareError(SpatialBenchError, ValueError):
    """Runs that cannot be compared (different benchmarks, unknown reference or subset)."""


def check_runs(runs: Sequence[RunFolder], against: str | None) -> str:
    """Return the runs' one benchmark.

    Raises:
        CompareError: no run, two benchmarks, a shared name, an unknown ``against``.
    """
    if not runs:
        raise CompareError("no run to compare")
    benchmarks = sorted({r.benchmark for r in runs})
    if len(benchmarks) > 1:
        listed = ", ".join(f"{r.name}: {r.benchmark}" for r in runs)
        raise CompareError(f"runs of different benchmarks cannot be compared ({listed})")
    names = [r.name for r in runs]
    if len(set(names)) < len(names):
        raise CompareError(f"two runs share a name: {', '.join(names)}")
    if against is not None and against not in names:
        raise CompareError(f"--against {against!r} is not one of the runs ({', '.join(names)})")
    return benchmarks[0]


def id_subset(spec: BenchmarkSpec, subset: str | None) -> Subset | None:
    """Return the declared subset of fixed ids named ``subset`` (None for None); CompareError otherwise."""
    if subset is None:
        return None
    known = [s for s in spec.subsets if s.ids is not None]
    chosen = [s for s in known if s.name == subset]
    if not chosen:
        names = ", ".join(repr(s.name) for s in known)
        said = f"only {names} of {spec.display_name} is known" if known else f"{spec.display_name} has none"
        raise CompareError(f"subset {subset!r}: {said}")
    return chosen[0]
