"""The library's top-level entry points: ``spatialbench.run``, ``arun``, ``open_run``, ``score``, ...

The only layer that turns coroutines into results (:func:`~spatialbench.api.sync.run_sync`, which works
inside a running event loop: Jupyter); the command line is a shell over it. Names resolve on first use
(nothing heavy is imported with the package), ``spatialbench.<name>`` forwards here:

- :func:`~spatialbench.api.running.run` / :func:`~spatialbench.api.running.arun` (``config, **overrides``:
  run to completion, return the :class:`~spatialbench.runs.summary.RunSummary`),
  :func:`~spatialbench.api.running.prepare` (check a config without running it);
- :func:`~spatialbench.api.folders.open_run` (a finished run, read-only) and
  :func:`~spatialbench.api.folders.score` (a run folder scored as it scored itself);
- :func:`~spatialbench.api.generating.generate` (write a benchmark folder);
- :func:`~spatialbench.api.analyses.analyze` (one registered analysis of a run, its document written);
- :func:`~spatialbench.api.importing.import_run` (another tool's results file as a scored run folder);
- :func:`~spatialbench.api.profiling.profile` (the benchmark diagnostic profile: chance, blind, 1 / N frames,
  coverage oracle and TsT-RF runs of one model, tabulated).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spatialbench.api.analyses import analyze
    from spatialbench.api.folders import open_run, score
    from spatialbench.api.generating import generate
    from spatialbench.api.importing import import_run
    from spatialbench.api.profiling import profile
    from spatialbench.api.running import arun, prepare, run

#: public name → the module that defines it
ENTRY_POINTS = {
    "run": "spatialbench.api.running",
    "arun": "spatialbench.api.running",
    "prepare": "spatialbench.api.running",
    "open_run": "spatialbench.api.folders",
    "score": "spatialbench.api.folders",
    "generate": "spatialbench.api.generating",
    "analyze": "spatialbench.api.analyses",
    "import_run": "spatialbench.api.importing",
    "profile": "spatialbench.api.profiling",
}
__all__ = ["analyze", "arun", "generate", "import_run", "open_run", "prepare", "profile", "run", "score"]


def __getattr__(name: str) -> Any:
    """Import the entry point ``name`` on first use (``spatialbench.api.run``)."""
    module = ENTRY_POINTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *ENTRY_POINTS})
