"""Runs as the browser UI shows them, read through :class:`~spatialbench.runs.folder.RunFolder`.

Settings come from ``config.json``, scores from ``items.csv`` (the run's own selection: a shard's items,
a human run's sample), and one item's stored request and answer from ``run.sqlite`` (read per page,
read-only, :meth:`RunFolder.stored`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbench.runs.folder import RunFolder, open_run
from spatialbench.runs.store.reader import StoredRow


@dataclass(frozen=True)
class ServedRun:
    """A run folder loaded for browsing.

    Attributes:
        folder: the run folder read back. name: its name in the UI (the folder name, ``parent/name``
            where two share it). scores: item id → ``{"score", "extracted", "rule", "prediction"}`` from
            ``items.csv`` (empty before scoring).
    """

    folder: RunFolder
    name: str
    scores: dict[str, dict[str, Any]]

    @property
    def path(self) -> Path:
        """The run folder."""
        return self.folder.path

    @property
    def model(self) -> str:
        """The run's model name (``human:NAME`` for a human evaluation)."""
        return self.folder.model

    @property
    def benchmark(self) -> str:
        """The benchmark name in the run's configuration."""
        return self.folder.benchmark

    @property
    def blind(self) -> bool:
        """Whether the run sent no media."""
        return self.folder.blind

    def stored(self, item_id: str) -> StoredRow | None:
        """Return the item's stored row (``ok`` first, then the latest); None when none or no store.

        Raises:
            RunFolderError: ``run.sqlite`` is not a readable run store.
        """
        return self.folder.stored(item_id)


def _clean(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


def read_scores(folder: RunFolder) -> dict[str, dict[str, Any]]:
    """Item id → its scored row of ``items.csv`` (empty when the run has no ``items.csv`` yet).

    Raises:
        RunFolderError: ``items.csv`` exists but cannot be read or lacks ``id``, ``task`` or ``score``.
    """
    if not folder.scored:
        return {}
    frame = folder.rows
    keep = [c for c in ("score", "extracted", "rule", "prediction") if c in frame.columns]
    return {str(r["id"]): {k: _clean(r[k]) for k in keep} for r in frame.to_dict("records")}


def load_served_run(path: Path) -> ServedRun:
    """Read a run folder (``config.json``; ``items.csv`` when scored).

    Raises:
        RunFolderError: no or unreadable ``config.json``, or an unreadable ``items.csv``.
    """
    folder = open_run(path, path.name)
    return ServedRun(folder, folder.name, read_scores(folder))
