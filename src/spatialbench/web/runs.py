"""Runs as the browser UI shows them.

Settings come from ``config.json``, scores from ``items.csv``, and one item's stored request and answer
from ``run.sqlite`` (queried per page, opened read-only).
"""

from __future__ import annotations

import json
import math
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from spatialbench.errors import SpatialBenchError
from spatialbench.runs import STORE_NAME

ITEM_QUERY = """SELECT status, response, prompt, error, latency_s FROM results WHERE item_id = ?
                ORDER BY (status = 'ok') DESC, finished_at DESC LIMIT 1"""


class RunFolderError(SpatialBenchError, ValueError):
    """A folder given as a run that is not one (the message names the folder and the file)."""


@dataclass(frozen=True)
class ServedRun:
    """A run folder loaded for browsing.

    Attributes:
        path: the folder; name: its folder name. config: ``config.json``'s ``config``. scores: item id →
            ``{"score", "extracted", "rule", "prediction"}`` from ``items.csv`` (empty before scoring).
    """

    path: Path
    name: str
    config: dict[str, Any]
    scores: dict[str, dict[str, Any]]

    @property
    def model(self) -> str:
        """The run's model name (``human:NAME`` for a human evaluation)."""
        return str(self.config.get("model", {}).get("name", "?"))

    @property
    def benchmark(self) -> str:
        """The benchmark name in the run's configuration (``""`` when it names none)."""
        return str(self.config.get("data", {}).get("benchmark", ""))

    @property
    def blind(self) -> bool:
        """Whether the run sent no media."""
        return bool(self.config.get("prompt", {}).get("blind"))

    def stored(self, item_id: str) -> dict[str, Any] | None:
        """Return the item's stored row (``ok`` first, then the latest): status, response, prompt, error."""
        path = self.path / STORE_NAME
        if not path.is_file():
            return None
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            row = conn.execute(ITEM_QUERY, (item_id,)).fetchone()
        if row is None:
            return None
        status, response, prompt, error, latency = row
        try:
            parsed = json.loads(prompt or "{}")
        except json.JSONDecodeError:
            parsed = {}
        return {"status": status, "response": response, "prompt": parsed if isinstance(parsed, dict) else {},
                "error": error, "latency_s": latency}


def _clean(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


def read_scores(folder: Path) -> dict[str, dict[str, Any]]:
    """Item id → its scored row of ``items.csv`` (empty when the run has no ``items.csv`` yet).

    Raises:
        RunFolderError: ``items.csv`` exists but cannot be read or lacks ``id`` / ``score``.
    """
    path = folder / "items.csv"
    if not path.is_file():
        return {}
    try:
        frame = pd.read_csv(path, dtype={"id": str})
    except (ValueError, OSError) as exc:
        raise RunFolderError(f"{path}: unreadable ({exc})") from None
    if not {"id", "score"} <= set(frame.columns):
        raise RunFolderError(f"{path}: needs columns id and score")
    keep = [c for c in ("score", "extracted", "rule", "prediction") if c in frame.columns]
    return {str(r["id"]): {k: _clean(r[k]) for k in keep} for r in frame.to_dict("records")}


def load_served_run(folder: Path) -> ServedRun:
    """Read a run folder (``config.json``; ``items.csv`` when scored).

    Raises:
        RunFolderError: no or unreadable ``config.json``, or an unreadable ``items.csv``.
    """
    path = folder / "config.json"
    try:
        config = json.loads(path.read_text(encoding="utf-8"))["config"]
    except FileNotFoundError:
        raise RunFolderError(f"{folder}: not a run folder (no config.json)") from None
    except (ValueError, KeyError, TypeError, UnicodeError) as exc:
        raise RunFolderError(f"{path}: unreadable ({type(exc).__name__}: {exc})") from None
    if not isinstance(config, dict):
        raise RunFolderError(f"{path}: field 'config' is not an object")
    return ServedRun(folder, folder.name, config, read_scores(folder))
