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


def chosen_subset(spec: BenchmarkSpec, subset: str | None) -> Subset | None:
    """Return the declared subset named ``subset`` (None for None), as ``run --subset`` resolves it.

    Raises:
        CompareError: the benchmark declares no such subset (the message lists those it declares).
    """
    if subset is None:
        return None
    try:
        return spec.subset(subset)
    except ValueError as exc:
        raise CompareError(str(exc)) from None


def subset_ids(run: RunFolder, subset: Subset) -> Sequence[str]:
    """Return the ids of ``subset``: its fixed id list, else those its loader option selects.

    The latter load the run's data with the subset (BLINK's spatial subtasks, MindCube-Tiny,
    VSI-Bench-Debiased), in benchmark order.

    Raises:
        CompareError: the subset needs the items and the run's data cannot be loaded with it.
    """
    if subset.ids is not None:
        return subset.ids()
    try:
        return [item.id for item in run.load(subset=subset.name)]
    except (ValueError, OSError) as exc:
        raise CompareError(f"{run.name}: subset {subset.name!r} is chosen from the run's data "
                           f"({run.data_path}), which cannot be read with it: {exc}") from None
