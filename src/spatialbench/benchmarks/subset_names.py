"""The line for ``--subset`` on a benchmark without subsets: it names the benchmarks that have some."""

from __future__ import annotations

from spatialbench.benchmarks import BENCHMARKS


def no_subsets(name: str) -> str:
    """Return the line for ``--subset`` on benchmark ``name`` (it has none): the benchmarks that do."""
    having = [n for n in BENCHMARKS.names() if BENCHMARKS.get(n).subsets]
    listed = "; ".join(f"{n} ({', '.join(s.name for s in BENCHMARKS.get(n).subsets)})" for n in having)
    return f"{name} has no subsets (--subset); benchmarks with subsets: {listed}"
