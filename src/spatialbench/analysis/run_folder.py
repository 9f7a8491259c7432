"""Read a scored run folder for analyses: its configuration and its per-item scores.

A run folder (``spatialbench run --out RUN``) holds ``config.json`` (``{"config": RunConfig, ...}``),
``items.csv`` (one row per scored item: ``id``, ``task``, ``prediction``, ``extracted``, ``score``,
``rule``, ``ground_truth``, ``dataset``, ``pruned``) and ``run.sqlite``. Nothing here writes to it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from spatialbench.errors import SpatialBenchError
from spatialbench.runs.baseline import baseline_name

CONFIG_FILE = "config.json"
ITEMS_FILE = "items.csv"
STORE_FILE = "run.sqlite"


class RunFolderError(SpatialBenchError, ValueError):
    """A folder that is not a scored run; the message names the folder and the file."""


@dataclass(frozen=True)
class RunFolder:
    """A scored run, read from its folder.

    Attributes:
        path: the folder. name: its label in tables (the folder name unless given).
        config: the run's configuration (``config.json``'s ``config``, a RunConfig as JSON).
        rows: one row per scored item (``items.csv``), ``id`` as text, plus ``answered`` (an answer was
            extracted).
    """

    path: Path
    name: str
    config: dict[str, Any]
    rows: pd.DataFrame

    @property
    def benchmark(self) -> str:
        """The registered benchmark the run evaluated."""
        return str(self.config["data"]["benchmark"])

    @property
    def model(self) -> str:
        """The model name as given to the run."""
        return str(self.config["model"]["name"])

    @property
    def role(self) -> str:
        """``chance`` (a chance baseline), ``blind`` (vision disabled, Sec. 4 / App. C.4) or ``vision``."""
        if baseline_name(self.model) is not None:
            return "chance"
        return "blind" if self.config.get("prompt", {}).get("blind") else "vision"


def read_run(path: Path | str, name: str | None = None) -> RunFolder:
    """Read ``config.json`` and ``items.csv`` of a run folder.

    Raises:
        RunFolderError: the folder, ``config.json`` or ``items.csv`` is missing or unreadable (the run was
            not scored yet: ``spatialbench run`` writes ``items.csv`` when it finishes).
    """
    folder = Path(path)
    config_path, items_path = folder / CONFIG_FILE, folder / ITEMS_FILE
    for required in (config_path, items_path):
        if not required.is_file():
            raise RunFolderError(f"{folder}: not a scored run folder (no {required.name})")
    try:
        config = json.loads(config_path.read_text(encoding="utf-8"))["config"]
        if not (isinstance(config["data"]["benchmark"], str) and isinstance(config["model"]["name"], str)):
            raise TypeError("benchmark and model name must be text")
    except (ValueError, KeyError, TypeError) as exc:
        why = f"{type(exc).__name__}: {exc}"
        raise RunFolderError(f"{config_path}: not a run configuration ({why})") from None
    try:
        rows = pd.read_csv(items_path, dtype={"id": str, "task": str, "dataset": str})
    except (ValueError, OSError) as exc:
        raise RunFolderError(f"{items_path}: unreadable ({exc})") from None
    missing = {"id", "task", "score"} - set(rows.columns)
    if missing:
        raise RunFolderError(f"{items_path}: missing column(s) {', '.join(sorted(missing))}")
    rows["answered"] = rows["extracted"].notna() if "extracted" in rows else True
    return RunFolder(folder, name or folder.resolve().name, config, rows)


def _flatten(value: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, Mapping) and value:
        for key, inner in value.items():
            yield from _flatten(inner, f"{prefix}.{key}" if prefix else str(key))
    else:
        yield prefix, json.dumps(value, sort_keys=True) if isinstance(value, list | dict) else value


def settings(config: Mapping[str, Any], ignored: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Flatten a run configuration to ``{"media.frames": "uniform:32", ...}``, leaving out ``ignored`` keys.

    A key is ignored when it or one of its dotted prefixes is in ``ignored``.
    """
    flat = dict(_flatten(config, ""))
    return {k: v for k, v in flat.items() if not any(k == i or k.startswith(i + ".") for i in ignored)}


def stored_turns(run_dir: Path, turn: str) -> dict[str, str]:
    """Item id -> the answer of its last ``ok`` strategy turn named ``turn`` (``explain``, ``map``, ...).

    Reads ``run.sqlite`` read-only; {} when the run has no such turn (or no ``turns`` table: a run
    without multi-turn strategies).
    """
    path = run_dir / STORE_FILE
    if not path.is_file():
        return {}
    query = "SELECT item_id, response FROM turns WHERE turn = ? AND status = 'ok' ORDER BY finished_at, rowid"
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            return {str(i): str(r) for i, r in conn.execute(query, (turn,)).fetchall()}
    except sqlite3.Error:
        return {}
