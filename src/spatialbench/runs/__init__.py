"""Runs: frozen run config, request keys, the SQLite response store, the resumable concurrent runner."""

from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.config import RunConfig
from spatialbench.runs.lock import RunLockedError
from spatialbench.runs.runner import STORE_NAME, RunInterrupted, Runner, RunSummary, resolve_config, run
from spatialbench.runs.store import RunStore, StoredResult

__all__ = [
    "STORE_NAME",
    "RunConfig",
    "RunInterrupted",
    "RunLockedError",
    "RunSetupError",
    "RunStore",
    "RunSummary",
    "Runner",
    "StoredResult",
    "resolve_config",
    "run",
]
