"""Runs: frozen run config, request keys, the SQLite response store, the resumable concurrent runner."""

from spatialbench.runs.config import RunConfig
from spatialbench.runs.runner import STORE_NAME, Runner, RunSummary, resolve_config, run
from spatialbench.runs.store import RunStore, StoredResult

__all__ = [
    "STORE_NAME",
    "RunConfig",
    "RunStore",
    "RunSummary",
    "Runner",
    "StoredResult",
    "resolve_config",
    "run",
]
