"""``spatialbench.run`` / ``spatialbench.arun``: a run from a config, a mapping or a run file, to its summary.

Both validate once (:func:`spatialbench.runs.prepare.prepare`: every check before anything is written or
sent), then execute (:func:`spatialbench.runs.runner.arun`). ``run`` is synchronous and works inside a
running event loop (a Jupyter notebook: :func:`~spatialbench.api.sync.run_sync`); ``arun`` is awaited.

Overrides are keyword arguments named after the config's top-level keys: ``out=PATH``, or a section as a
mapping of its fields laid over the config's (``data={"limit": 5}``, ``model={"concurrency": 4}``); any
other key is refused with a :class:`~spatialbench.runs.config_file.RunConfigError` naming it.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from spatialbench.api.sync import run_sync
from spatialbench.media.cache import FrameCache
from spatialbench.models.base import Backend
from spatialbench.runs import runner
from spatialbench.runs.config_file import ConfigSource, run_config
from spatialbench.runs.copied_config import check_pointed_run
from spatialbench.runs.prepare import PreparedRun
from spatialbench.runs.prepare import prepare as prepare_config
from spatialbench.runs.summary import RunInterrupted, RunSummary


def prepare(config: ConfigSource, *, backend: Backend | None = None, **overrides: Any) -> PreparedRun:
    """Validate ``config`` with ``overrides`` (see the module docstring) and return the prepared run.

    Nothing is written or sent. ``backend``: a back end object to run with instead of the one
    ``model.name`` names.

    Raises:
        RunConfigError: an unreadable run file, an unknown override, a refused value (named by field).
        SpatialBenchError / ValueError: whatever :func:`spatialbench.runs.prepare.prepare` refuses (unknown
            names, options, unreadable data, missing media...). OtherRunError: ``config`` is a copy of a
            run's record and the run it names was recorded with other settings (and no ``out`` override).
    """
    prepared = prepare_config(run_config(config, overrides), backend)
    if isinstance(config, str | os.PathLike) and "out" not in overrides:  # as ``run --config`` checks
        check_pointed_run(Path(config), prepared.config)
    return prepared


def execute(prepared: PreparedRun, *, progress: bool = True, cache: FrameCache | None = None) -> RunSummary:
    """Execute a prepared run to completion (blocking; inside a running loop too) and return its summary.

    ``cache``: a frame cache shared with other runs on the same data folder.

    Raises:
        RunInterrupted: Ctrl-C; everything answered so far is stored (``answered``: by this call).
        RunSetupError, RunLockedError, BackendError: the run could not start.
    """
    model_run = None if prepared.backend is None else runner.Runner(prepared, progress, cache)
    try:
        return run_sync(model_run.run() if model_run is not None else runner.arun(prepared))
    except KeyboardInterrupt:
        raise RunInterrupted(model_run.answered if model_run is not None else 0) from None


def run(
    config: ConfigSource,
    *,
    backend: Backend | None = None,
    progress: bool = True,
    cache: FrameCache | None = None,
    **overrides: Any,
) -> RunSummary:
    """Run ``config`` (a ``RunConfig``, a mapping of sections or a run file's path) and return its summary.

    ``overrides``: ``out=PATH`` or sections as mappings (module docstring). ``backend``: a back end object
    instead of the one ``model.name`` names. ``progress``: show a progress bar (stderr). ``cache``: a
    frame cache shared with other runs on the same data folder. Re-running resumes (answered items are
    kept). The summary's ``score`` is the :class:`~spatialbench.scoring.scorer.ScoreResult`
    (``.table.average``: the benchmark's average, percent); ``OUT/scores.*`` and ``OUT/items.csv`` are
    written.

    Raises:
        RunConfigError: an unreadable run file, an unknown override key (named), a refused value.
        SpatialBenchError / ValueError: the run cannot start (unknown names, unreadable data, missing
            media, a folder of another run...); nothing was sent.
        RunInterrupted: Ctrl-C; everything answered so far is stored.
    """
    return execute(prepare(config, backend=backend, **overrides), progress=progress, cache=cache)


async def arun(
    config: ConfigSource,
    *,
    backend: Backend | None = None,
    progress: bool = True,
    cache: FrameCache | None = None,
    **overrides: Any,
) -> RunSummary:
    """Await a run: :func:`run`'s arguments, result and errors; validation runs in a worker thread.

    Cancelling the task stops the run (``asyncio.CancelledError``); everything answered is stored.
    """
    prepared = await asyncio.to_thread(prepare, config, backend=backend, **overrides)
    return await runner.arun(prepared, progress, cache)
