"""Runs: frozen run config (file or flags), validation (``prepare``), the SQLite store, the resumable runner.

Executing a run: :func:`~spatialbench.runs.prepare.prepare` → :func:`~spatialbench.runs.runner.arun` (a
coroutine; the synchronous ``spatialbench.run`` lives in :mod:`spatialbench.api`). Reading one back:
:func:`~spatialbench.runs.folder.open_run`.
"""

from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.config import DataConfig, MediaConfig, ModelConfig, RunConfig, ScoringConfig
from spatialbench.runs.lock import RunLockedError
from spatialbench.runs.prepare import PreparedRun, resolve_config
from spatialbench.runs.runner import Runner, arun
from spatialbench.runs.store import RunStore, StoredResult
from spatialbench.runs.summary import STORE_NAME, RunInterrupted, RunSummary

__all__ = [
    "STORE_NAME",
    "DataConfig",
    "MediaConfig",
    "ModelConfig",
    "PreparedRun",
    "RunConfig",
    "RunInterrupted",
    "RunLockedError",
    "RunSetupError",
    "RunStore",
    "RunSummary",
    "Runner",
    "ScoringConfig",
    "StoredResult",
    "arun",
    "resolve_config",
]
