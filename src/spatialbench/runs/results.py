"""Reading a run folder back for scoring: its stored answers and what it ran on; nothing is written.

``spatialbench breakdown --run RUN`` (and ``score --run RUN``) score the answers of a ``spatialbench run``
folder exactly as predictions read from a file: the latest ``ok`` answer per item. The store is opened
read-only, so a folder another run holds, or a read-only copy, can be scored; a damaged store is one
error naming the file.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spatialbench.records.files import read_text
from spatialbench.records.item import Item
from spatialbench.runs.baseline import baseline_name
from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.plan import select_items
from spatialbench.runs.summary import STORE_NAME
from spatialbench.scoring.baselines import BASELINES
from spatialbench.scoring.predictions import Predictions
from spatialbench.scoring.rules import ScoringRules
from spatialbench.scoring.scorer import ScoreResult, score_items

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
    """What a run folder's ``config.json`` says it ran, and how the run scored itself.

    Attributes:
        benchmark, data, model: the registered benchmark, the data path and the model name.
        options: the loader options the run loaded its items with. ids, limit: its item selection.
        extract, mra: its scoring modes (None extract: the benchmark's default).
    """

    benchmark: str
    data: Path
    model: str
    options: dict[str, Any] = field(default_factory=dict)
    ids: tuple[str, ...] | None = None
    limit: int | None = None
    extract: str | None = None
    mra: str = "official"


def run_record(run_dir: Path) -> RunRecord:
    """Return what the run in ``run_dir`` ran and how it scored (from its ``config.json``).

    Raises:
        FileNotFoundError: no ``config.json``. RunFolderError: it is not a run configuration.
    """
    path = run_dir / CONFIG_NAME
    if not path.is_file():
        raise FileNotFoundError(f"no {CONFIG_NAME} in {run_dir} (is it the --out folder of a run?)")
    try:
        config = json.loads(read_text(path))["config"]
        data, scoring = config["data"], config.get("scoring") or {}
        ids = data.get("ids")
        return RunRecord(str(data["benchmark"]), Path(data["path"]), str(config["model"]["name"]),
                         dict(data.get("options") or {}), None if ids is None else tuple(map(str, ids)),
                         data.get("limit"), scoring.get("extract"), str(scoring.get("mra") or "official"))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:  # JSONDecodeError is a ValueError
        message = str(exc) if str(path) in str(exc) else f"{type(exc).__name__}: {exc}"
        raise RunFolderError(f"{path}: not a run configuration ({message})") from None


def score_run(
    run_dir: Path, record: RunRecord, items: Iterable[Item], rules: ScoringRules,
    extract: str | None = None, mra: str | None = None,
) -> ScoreResult:
    """Score the run in ``run_dir`` as it scored itself: its item selection, modes and answers.

    The run's ``ids`` / ``limit`` select among ``items``; ``extract`` and ``mra`` default to the run's
    recorded modes. A baseline run (``chance-random`` ...) is scored as ``spatialbench baseline`` scores
    it, so the result equals the run's own ``scores.json``.

    Raises:
        ValueError: ``extract`` for a baseline run, an unknown mode, ids the items lack (SelectionError).
        FileNotFoundError, RunFolderError: an unreadable run store (:func:`store_rows`).
    """
    selected = select_items(list(items), record.ids, record.limit)
    baseline = baseline_name(record.model)
    if baseline is not None:
        if extract is not None:
            raise ValueError(f"--extract does not apply to a {baseline} run (it has no answers to read)")
        return BASELINES.get(baseline)(selected, rules, mra=mra or record.mra)
    return score_items(selected, run_responses(run_dir), rules, extract=extract or record.extract,
                       mra=mra or record.mra)
