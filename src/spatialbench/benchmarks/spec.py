"""One benchmark as one value: how it is loaded, prompted, scored and broken down, and its run defaults.

A benchmark package (``spatialbench.benchmarks.<name>``) composes the generic parts — a loader reading its
official files, a prompt builder (:mod:`spatialbench.prompting`), scoring rules and tables
(:mod:`spatialbench.scoring`) — into one frozen :class:`BenchmarkSpec` named ``SPEC``; the registry in
:mod:`spatialbench.benchmarks` lists it lazily. The runner and the CLI look a spec up once per command and
pass it down.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from spatialbench.prompting.builders import BuilderFactory
from spatialbench.records.errors import unreadable
from spatialbench.records.item import Item
from spatialbench.records.rows import LoadedItems
from spatialbench.scoring.grouped import Table
from spatialbench.scoring.rules import ScoringRules

Scalar = str | int | float | bool
Loader = Callable[..., LoadedItems]
"""``load(path, **options) -> LoadedItems``; path is a data folder or an annotation file."""
BreakdownFn = Callable[..., list[Table]]
"""``fn(items, rows, **options) -> tables``: the breakdowns of ``spatialbench breakdown`` / ``score``."""


@dataclass(frozen=True)
class RunDefaults:
    """What a run of the benchmark uses for settings it leaves unset.

    Attributes:
        frames: frame strategy (None = the runner's ``uniform:32``); ``all`` for benchmarks whose items
            already list the frames to send.
        max_new_tokens: answer budget (None = the prompt builder's value, else the runner's fallback).
        options: loader options applied by default (e.g. MMSI-Video-Bench's paper setting ``uniform-50``);
            the CLI prints a note for each one applied.
        frame_options: loader options that choose the frames themselves: with one of them set, a frame
            strategy other than ``frames`` is refused (it would re-sample the chosen frames).
    """

    frames: str | None = None
    max_new_tokens: int | None = None
    options: Mapping[str, Scalar] = field(default_factory=dict)
    frame_options: tuple[str, ...] = ()


@dataclass(frozen=True)
class BenchmarkSpec:
    """How one benchmark is loaded, prompted, scored and broken down.

    Attributes:
        name: registered name (``vsibench``). description: one line for listings.
        load: reads items from a data folder or annotation file; bad rows go to ``.errors``.
        prompt_builder: builder factory, called with the run's ``PromptConfig``.
        scoring: extractors per extraction mode, the default mode and the table.
        breakdowns: the breakdown tables (None: the benchmark has none).
        defaults: run defaults (:class:`RunDefaults`).
        option_checks: loader option name → a function raising ValueError for a bad value, called before
            any work (an unknown MMSI-Video-Bench setting fails before the output folder is made).
    """

    name: str
    description: str
    load: Loader
    prompt_builder: BuilderFactory
    scoring: ScoringRules
    breakdowns: BreakdownFn | None = None
    defaults: RunDefaults = field(default_factory=RunDefaults)
    option_checks: Mapping[str, Callable[[Any], object]] = field(default_factory=dict)

    def load_items(self, path: str | Path, **options: Any) -> LoadedItems:
        """Load the benchmark from ``path`` (a folder or an annotation file).

        Loaders name the file they could not read; a decoding error that escapes a loader without a file
        name is named here by ``path``.

        Raises:
            FileNotFoundError / ValueError: from the loader (an unreadable file is a
                ``records.errors.AnnotationFileError``, a ValueError, naming the file and line).
        """
        try:
            return self.load(Path(path), **options)
        except UnicodeError as error:
            raise unreadable(path, error) from None

    def option_names(self) -> list[str] | None:
        """Return the loader's keyword options (all but the data path), sorted; None if it takes any."""
        parameters = list(inspect.signature(self.load).parameters.values())[1:]
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
            return None
        return sorted(p.name for p in parameters if p.kind is not inspect.Parameter.VAR_POSITIONAL)

    def check_options(self, options: Mapping[str, object]) -> None:
        """Check loader option names and, where the benchmark checks them, values.

        Raises:
            ValueError: an option the loader does not take (the message lists the known ones), or a value
                its check refuses.
        """
        known = self.option_names()
        for name, value in options.items():
            if known is not None and name not in known:
                raise ValueError(f"unknown benchmark option {name!r}; known: {', '.join(known) or 'none'}")
            if name in self.option_checks:
                self.option_checks[name](value)

    def breakdown_tables(
        self, items: Iterable[Item], rows: pd.DataFrame, warnings: list[str] | None = None, **options: Any
    ) -> list[Table]:
        """Return the breakdown tables (empty when the benchmark has none).

        Options the breakdown function does not take are dropped when None and refused otherwise (a
        ``sub_bench`` for ReMindView-Bench is an error, not silently ignored). ``warnings``, when given and
        taken by the function, collects lines about tables left out or items outside a table.

        Raises:
            ValueError: an option (not None) the breakdown does not take; whatever the benchmark's
                function raises for bad options (e.g. an unknown sub-benchmark).
        """
        if self.breakdowns is None:
            return []
        taken = set(inspect.signature(self.breakdowns).parameters)
        refused = [name for name, value in options.items() if name not in taken and value is not None]
        if refused:
            names = ", ".join("--" + name.replace("_", "-") for name in refused)
            raise ValueError(f"{names} does not apply to {self.name} (its breakdown takes no such option)")
        kept = {name: value for name, value in options.items() if name in taken}
        if warnings is not None and "warnings" in taken:
            kept["warnings"] = warnings
        return self.breakdowns(list(items), rows, **kept)
