"""``spatialbench.analyze(name, run, **params)``: one registered analysis of a run, its document written."""

from __future__ import annotations

import inspect
import os
from typing import Any

from spatialbench.analysis.registry import ANALYSES, AnalysisDocument, write_document
from spatialbench.api.sync import run_sync
from spatialbench.runs.folder import RunFolder, open_run


def analyze(name: str, run: RunFolder | str | os.PathLike[str], **params: Any) -> AnalysisDocument:
    """Compute analysis ``name`` of the run folder ``run``, write ``RUN/analysis/<name>.json``, return it.

    ``params``: the analysis's parameters (its ``Params`` model validates them). An analysis that asks a
    model has a coroutine ``arun``; it runs through :func:`~spatialbench.api.sync.run_sync` (so inside a
    notebook too).

    Raises:
        UnknownNameError: no analysis of that name (near misses listed).
        RunFolderError: not a run folder. pydantic.ValidationError: a refused parameter (named).
        SpatialBenchError: the analysis's own errors.
    """
    analysis = ANALYSES.get(name)
    folder = run if isinstance(run, RunFolder) else open_run(os.fspath(run))
    asynchronous = getattr(analysis, "arun", None)
    if asynchronous is not None and inspect.iscoroutinefunction(asynchronous):
        doc = run_sync(asynchronous(folder, **params))
    else:
        doc = analysis.run(folder, **params)
    write_document(folder.path, doc)
    return doc
