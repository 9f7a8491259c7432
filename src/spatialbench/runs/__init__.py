"""Runs: frozen run config (file or flags), request keys, the SQLite response store, the resumable runner."""

from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.config import DataConfig, MediaConfig, ModelConfig, RunConfig, ScoringConfig
from spatialbench.runs.lock import RunLockedError
from spatialbench.runs.runner import Runner, resolve_config, run
from spatialbench.runs.store import RunStore, StoredResult
from spatialbench.runs.summary import STORE_NAME, RunInterrupted, RunSummary

__all__ = [
    "STORE_NAME",
    "DataConfig",
    "MediaConfig",
    "ModelConfig",
    "RunConfig",
    "RunInterrupted",
    "RunLockedError",
    "RunSetupError",
    "RunStore",
    "RunSummary",
    "Runner",
    "ScoringConfig",
    "StoredResult",
    "resolve_config",
    "run",
]
