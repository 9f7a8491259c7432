"""A finished run folder as the report draws it: :class:`RunData`, built from a :class:`RunFolder`.

A run folder (``spatialbench run --out RUN``, a baseline run, a merged run or a human run written by
``spatialbench serve``) is read through :func:`~spatialbench.runs.folder.open_run`: its selection (ids,
limit, shard) and its score are :meth:`~spatialbench.runs.folder.RunFolder.score`, the run scored as it
scored itself, so the report's tables are the ones ``spatialbench score --run`` prints. Nothing is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.records.item import Item
from spatialbench.runs import RunConfig
from spatialbench.runs.checks import RunFolderError
from spatialbench.runs.folder import RunFolder, open_run
from spatialbench.runs.store.reader import StoredRow
from spatialbench.scoring.scorer import ScoreResult


@dataclass(frozen=True)
class RunData:
    """One run as the report draws it.

    Attributes:
        folder: the run folder read back. items: the items the run selected, in benchmark order (less
            excluded ones). result: their scores (same selection and modes as the run). data: the
            benchmark path the items were read from. by_id: ``items`` by id.
    """

    folder: RunFolder
    items: list[Item]
    result: ScoreResult
    data: Path
    by_id: dict[str, Item] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        """The run folder."""
        return self.folder.path

    def item(self, shown: Item) -> Item:
        """Return this run's own copy of item ``shown`` (a ReVSI budget's truth and video), else ``shown``."""
        return self.by_id.get(shown.id, shown)

    @property
    def label(self) -> str:
        """The run's row name (its folder name)."""
        return self.folder.name

    @property
    def config(self) -> RunConfig:
        """The run's configuration, validated."""
        return self.folder.config

    @property
    def record(self) -> dict[str, Any]:
        """``config.json`` as written (config, environment, back end, prompt fingerprint)."""
        return self.folder.record

    @property
    def spec(self) -> BenchmarkSpec:
        """The run's benchmark."""
        return self.folder.spec

    @property
    def answers(self) -> dict[str, StoredRow]:
        """Item id → its latest stored row (``ok`` rows win over older failed ones)."""
        return self.folder.answers()

    @property
    def kind(self) -> str:
        """``baseline``, ``human``, ``blind`` or ``model`` (the leaderboard section of the run)."""
        return self.folder.kind


def check_benchmarks(run_paths: Sequence[str | Path]) -> list[RunFolder]:
    """Open the runs and check, from each ``config.json`` alone, that they name one registered benchmark.

    Raises:
        RunFolderError: a run that is not a run folder or names an unregistered benchmark, or runs of
            different benchmarks (one line naming every run and its benchmark).
    """
    runs = [open_run(path) for path in run_paths]
    for run in runs:
        run.spec  # noqa: B018  (an unregistered benchmark: RunFolderError naming the folder)
    if len({run.benchmark for run in runs}) > 1:
        listing = ", ".join(f"{run.path} ({run.benchmark})" for run in runs)
        raise RunFolderError(f"runs of different benchmarks: {listing}; report one benchmark at a time")
    return runs


def load_run(run: str | Path | RunFolder, data: str | Path | None = None,
             exclude: frozenset[str] = frozenset()) -> RunData:
    """Read run folder ``run``; ``data`` replaces the benchmark path recorded in its configuration.

    ``exclude``: item ids left out of the run's selection (review flags, ``report --exclude``).

    Raises:
        RunFolderError: the folder, its configuration, its store or its benchmark data cannot be read (the
            message names which).
    """
    folder = run if isinstance(run, RunFolder) else open_run(run)
    folder.config  # noqa: B018  (a configuration that does not validate: RunFolderError naming it)
    try:
        folder.answers()
    except FileNotFoundError as exc:
        raise RunFolderError(str(exc)) from None
    path = Path(data) if data is not None else folder.data_path
    try:
        loaded = list(folder.load(path))
        items = folder.items(loaded, exclude)
    except (ValueError, OSError) as exc:
        why = f"benchmark data of the run ({path}) cannot be read: {exc}"
        raise RunFolderError(f"{folder.path}: {why}") from None
    result = folder.score(loaded, exclude=exclude)
    return RunData(folder, items, result, path, {item.id: item for item in items})
