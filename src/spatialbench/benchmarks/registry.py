"""Benchmarks by name: how to load a benchmark's items and how to extract, score and tabulate answers.

A benchmark module registers one :class:`BenchmarkSpec`::

    BENCHMARKS.add("vsibench", BenchmarkSpec(name="vsibench", load=load_vsibench, table=vsibench_table,
                                             choice_modes=("official", "robust"), ...))

:func:`get_benchmark` imports every module of ``spatialbench.benchmarks`` once (on first use, not at
import time), so a new benchmark is one new file in that package and no edit elsewhere.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spatialbench.records.rows import LoadedItems
from spatialbench.registry import Registry

if TYPE_CHECKING:  # scoring imports this module; at run time it is imported only where used
    import pandas as pd

    from spatialbench.scoring.tables import ScoreTable


Loader = Callable[..., LoadedItems]
"""``load(path, **options) -> LoadedItems``; path is a data folder or an annotation file."""
TableFn = Callable[["pd.DataFrame"], "ScoreTable"]
"""Aggregates per-item score rows (columns id, task, dataset, score, ...) into the benchmark's table."""


@dataclass(frozen=True)
class BenchmarkSpec:
    """How one benchmark is loaded and scored.

    Attributes:
        name: registered name (``vsibench``).
        load: reads items from a data folder or annotation file; bad rows go to ``.errors``.
        table: the benchmark's table layout (per-item score rows → :class:`ScoreTable`).
        choice_modes / number_modes: extraction modes this benchmark allows, names in
            ``CHOICE_EXTRACTORS`` / ``NUMBER_EXTRACTORS`` (a benchmark registers its own there).
        default_extract: extraction mode for new runs.
        extract_aliases: per mode name, the (choice mode, number mode) to use when they differ from
            the mode name itself (e.g. a benchmark whose ``official`` choice rule is its own).
        description: one line for listings.
        default_frames: frame strategy a run uses when it names none (None = the runner's ``uniform:32``);
            ``all`` for benchmarks whose items already list the frames to send.
        max_new_tokens: answer budget a run uses when it names none (None = the prompt builder's value,
            else the runner's fallback); recorded in the run's config.
        run_options: loader options a run uses when it does not give them (e.g. MMSI-Video-Bench's paper
            setting ``uniform-50``); the CLI prints a note for each one applied.
        frame_options: loader options that choose the frames themselves: with one of them set, a frame
            strategy other than ``default_frames`` is refused (it would re-sample the chosen frames).
    """

    name: str
    load: Loader
    table: TableFn
    choice_modes: tuple[str, ...] = ("official", "robust")
    number_modes: tuple[str, ...] = ("official", "robust")
    default_extract: str = "robust"
    extract_aliases: dict[str, tuple[str, str]] = field(default_factory=dict)
    description: str = ""
    default_frames: str | None = None
    max_new_tokens: int | None = None
    run_options: dict[str, str | int | float | bool] = field(default_factory=dict)
    frame_options: tuple[str, ...] = ()

    def extractor_names(self, mode: str) -> tuple[str, str]:
        """(choice mode, number mode) registered names for ``mode``; raises ValueError if not allowed."""
        choice, number = self.extract_aliases.get(mode, (mode, mode))
        if choice not in self.choice_modes and number not in self.number_modes:
            allowed = sorted(set(self.choice_modes) | set(self.number_modes) | set(self.extract_aliases))
            raise ValueError(f"benchmark {self.name!r} has no extraction mode {mode!r}; allowed: {allowed}")
        return choice, number

    def extractors(self, mode: str) -> tuple[Any, Any]:
        """Return the (choice, number) extractor functions for ``mode``."""
        from spatialbench.scoring.extraction import CHOICE_EXTRACTORS, NUMBER_EXTRACTORS, load_robust_modes

        choice, number = self.extractor_names(mode)
        load_robust_modes()
        return CHOICE_EXTRACTORS.get(choice), NUMBER_EXTRACTORS.get(number)


BENCHMARKS: Registry[BenchmarkSpec] = Registry("benchmark")
_discovered = False


def discover() -> None:
    """Import every module of ``spatialbench.benchmarks`` once, so each registers its benchmark."""
    global _discovered
    if _discovered:
        return
    package = importlib.import_module("spatialbench.benchmarks")
    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"spatialbench.benchmarks.{module.name}")
    _discovered = True


def get_benchmark(name: str) -> BenchmarkSpec:
    """Return the registered benchmark ``name``; raises UnknownNameError with suggestions."""
    discover()
    return BENCHMARKS.get(name)


def load_items(name: str, path: str | Path, **options: Any) -> LoadedItems:
    """Load benchmark ``name`` from ``path`` (a folder or an annotation file).

    The one entry point of ``run``, ``score``, ``baseline`` and ``breakdown``. Loaders name the file they
    could not read; a decoding error that escapes a loader without a file name is named here by ``path``.

    Raises:
        UnknownNameError: unknown benchmark. FileNotFoundError / ValueError: from the loader (an unreadable
            file is a ``load_errors.AnnotationFileError``, a ValueError, naming the file and line).
    """
    spec = get_benchmark(name)
    try:
        return spec.load(Path(path), **options)
    except UnicodeError as error:
        from spatialbench.records.errors import unreadable

        raise unreadable(path, error) from None
