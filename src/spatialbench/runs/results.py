"""Reading a run folder back for scoring: its stored answers and what it ran on; nothing is written.

``spatialbench breakdown --run RUN`` (and ``score --run RUN``) score the answers of a ``spatialbench run``
folder exactly as predictions read from a file: the latest ``ok`` answer per item. The store is opened
read-only, so a folder another run holds, or a read-only copy, can be scored; a damaged store is one
error naming the file.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.summary import STORE_NAME
from spatialbench.scoring.predictions import Predictions

CONFIG_NAME = "config.json"


class RunFolderError(RunSetupError):
    """A run folder whose store or configuration cannot be read; the message names the file."""


def store_rows(run_dir: Path, query: str) -> list[tuple[Any, ...]]:
    """Return the rows ``query`` selects from ``run_dir/run.sqlite``, opened read-only.

    Raises:
        FileNotFoundError: the folder has no ``run.sqlite``.
        RunFolderError: ``run.sqlite`` is not a readable run store (the message names it).
    """
    path = run_dir / STORE_NAME
    if not path.is_file():
        raise FileNotFoundError(f"no {STORE_NAME} in {run_dir} (is it the --out folder of spatialbench run?)")
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            return conn.execute(query).fetchall()
    except sqlite3.Error as exc:
        raise RunFolderError(f"{path}: not a readable run store ({exc})") from None


def run_responses(run_dir: Path) -> dict[str, str]:
    """Return item id → answer of every item with an ``ok`` row (the latest one, by finish time).

    Raises:
        FileNotFoundError, RunFolderError: see :func:`store_rows`.
    """
    query = "SELECT item_id, response FROM results WHERE status = 'ok' ORDER BY finished_at"
    rows = store_rows(run_dir, query)
    return {str(item_id): response for item_id, response in rows if response is not None}


def run_predictions(run_dir: Path) -> Predictions:
    """Return the run's answers as :class:`~spatialbench.scoring.predictions.Predictions` (format ``run``).

    ``spatialbench score --run RUN`` scores them exactly as a predictions file (:func:`run_responses`).
    """
    return Predictions(responses=run_responses(run_dir), format="run")


@dataclass(frozen=True)
class RunRecord:
    """What a run folder's ``config.json`` says it ran: benchmark, data path and model name."""

    benchmark: str
    data: Path
    model: str


def run_record(run_dir: Path) -> RunRecord:
    """Return the benchmark, data path and model of the run in ``run_dir`` (from ``config.json``).

    Raises:
        FileNotFoundError: no ``config.json``. RunFolderError: it is not a run configuration.
    """
    path = run_dir / CONFIG_NAME
    if not path.is_file():
        raise FileNotFoundError(f"no {CONFIG_NAME} in {run_dir} (is it the --out folder of a run?)")
    try:
        config = json.loads(path.read_text(encoding="utf-8"))["config"]
        data = config["data"]
        return RunRecord(str(data["benchmark"]), Path(data["path"]), str(config["model"]["name"]))
    except (ValueError, KeyError, TypeError) as exc:  # JSONDecodeError and UnicodeError are ValueErrors
        raise RunFolderError(f"{path}: not a run configuration ({type(exc).__name__}: {exc})") from None
