"""One benchmark as one value: how it is loaded, prompted, scored and broken down, and its run defaults.

A benchmark package (``spatialbench.benchmarks.<name>``) composes the generic parts — a loader reading its
official files, a prompt builder (:mod:`spatialbench.prompting`), scoring rules and tables
(:mod:`spatialbench.scoring`) — into one frozen :class:`BenchmarkSpec` named ``SPEC``; the registry in
:mod:`spatialbench.benchmarks` lists it lazily; the runner and the CLI look it up once per command.

Besides loading, prompting and scoring, a spec declares (each with a default, so a new benchmark declares
none of them): its media layout (:class:`MediaLayout`, checked before a run sends anything), its subsets
(:class:`Subset`, ``--subset``), its breakdown options (:class:`BreakdownOption`, ``-B KEY=VALUE``), its
error taxonomy (:class:`ErrorTaxonomy`, ``spatialbench errors``) and a writer of its file format (the
``format`` module of its package, which generators write through).
"""

from __future__ import annotations

import inspect
import os
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd

from spatialbench.benchmarks.option_kinds import OptionError, Scalar, check_kind
from spatialbench.errors import SpatialBenchError
from spatialbench.media.cache import resolve_path
from spatialbench.prompting.builders import BuilderFactory
from spatialbench.prompting.templates import read_json
from spatialbench.records.item import Item, MediaKind
from spatialbench.records.item_table import LoadedTable
from spatialbench.records.rows import LoadedItems
from spatialbench.registry import near_misses
from spatialbench.scoring.grouped import Table
from spatialbench.scoring.rules import ScoringRules

T = TypeVar("T")
Loader = Callable[..., LoadedItems]
"""``load(path, **options) -> LoadedItems``; path is a data folder or an annotation file."""
TableLoader = Callable[..., LoadedTable]
"""``load_table(path, **options) -> LoadedTable``: the loader's items as columns (same options)."""
BreakdownFn = Callable[..., list[Table]]
"""``fn(items, rows, **options) -> tables``: the breakdowns of ``spatialbench breakdown`` / ``score``."""
Writer = Callable[[Sequence[Item], Path], list[Path]]
"""``write(items, folder) -> paths written``: items as the benchmark's files, which ``load(folder)`` reads."""

def media_files(item: Item, root: Path) -> list[str]:
    """Return every media file ``item`` points at: relative paths joined to ``root``, frames to their folder.

    A frame folder without frame names (none found when loading) is returned itself, so it counts as
    missing.
    """
    files = []
    for ref in item.media:
        path = resolve_path(ref, root)
        if ref.kind is MediaKind.FRAMES and ref.frames:
            files += [os.path.join(path, name) for name in ref.frames]
        else:
            files.append(path)
    return files


@dataclass(frozen=True)
class MediaLayout:
    """Where a benchmark's media lies under its data folder ``<data>``.

    Attributes:
        expected: the layout, as a missing-media error says it (``<data>/<dataset>/<scene_name>.mp4``).
        files: ``files(item, root) -> paths``: every media file of an item under the data folder ``root``
            (default :func:`media_files`: the item's media references).
    """

    expected: str = "the media paths of the annotation file, relative to <data>"
    files: Callable[[Item, Path], list[str]] = media_files


@dataclass(frozen=True)
class Subset:
    """A named part of a benchmark, selected by its loader's ``subset`` option (``--subset NAME``).

    Attributes:
        name: the option value (``tiny``). description: one line for listings and help.
        label: how messages name it (``VSI-Bench (tiny)``; default: the name).
        select: ``select(items) -> items``: the subset of all loaded items; ids it lacks become row errors.
        ids: the subset's fixed ids in list order, when it is an id list (tiny); lets scored rows be cut
            to the subset without the items (``spatialbench compare --subset``). None: the subset depends
            on the items (debiased: their pruning flag).
    """

    name: str
    description: str
    select: Callable[[LoadedItems], LoadedItems]
    label: str = ""
    ids: Callable[[], Sequence[str]] | None = None

    @property
    def title(self) -> str:
        """The label, else the name."""
        return self.label or self.name


@dataclass(frozen=True)
class BreakdownOption:
    """An option of a benchmark's breakdown function (a keyword argument it takes).

    Attributes:
        name: the keyword (``sub_bench``), given as ``-B sub_bench=robot``.
        values: the allowed values (empty: any text). help: one line.
        label: what a value is, in the message refusing an unknown one (``MMSI-Video-Bench
            sub-benchmark``; default: the name).
    """

    name: str
    values: tuple[str, ...] = ()
    help: str = ""
    label: str = ""

    def check(self, value: str) -> None:
        """Refuse a value outside :attr:`values` (ValueError: ``unknown LABEL 'x'; known: a, b``)."""
        if self.values and value not in self.values:
            raise ValueError(f"unknown {self.label or self.name} {value!r}; known: {', '.join(self.values)}")


class BreakdownOptionError(SpatialBenchError, ValueError):
    """A breakdown option the benchmark does not declare: ``option`` names it, ``benchmark`` the benchmark."""

    def __init__(self, option: str, benchmark: str, known: Sequence[BreakdownOption]) -> None:
        listed = "; ".join(f"{o.name} ({' | '.join(o.values) or 'text'})" for o in known) or "none"
        super().__init__(f"breakdown option {option!r} does not apply to {benchmark} (its options: {listed})")
        self.option, self.benchmark, self.known = option, benchmark, tuple(known)


@dataclass(frozen=True)
class ErrorTaxonomy:
    """A benchmark's error taxonomy: its name in annotation files and the package data file of its categories.

    The file (JSON) holds ``paper`` (where the taxonomy comes from), ``categories`` (``key``, ``label``,
    ``description``) and ``groups`` (``key``, ``label``, ``members``: category keys summed in tables);
    keys starting with ``_`` are notes.
    """

    name: str
    package: str
    file: str = "error_taxonomy.json"
    #: error-table columns and per-column sampling by these groups of tasks (group, tasks); () = by task
    columns: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: one category per error: an annotation with two categories for one item is refused
    single_cause: bool = False

    def read(self) -> dict[str, Any]:
        """Return the taxonomy: ``paper``, ``categories``, ``groups`` (a new dict; notes left out).

        Also ``single_cause`` and ``columns`` (task → its column group; {} = columns by task).

        Raises:
            FileNotFoundError: the package lacks the file. ValueError: the file is not JSON.
        """
        data = {k: v for k, v in read_json(self.package, self.file).items() if not k.startswith("_")}
        columns = {task: group for group, tasks in self.columns for task in tasks}
        return {**data, "single_cause": self.single_cause, "columns": columns}


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
        question_frames: a frame strategy the benchmark samples per question rather than per media → the
            value of its first frame option that does so (MMSI-Video-Bench: ``consecutive:N@S`` →
            ``setting=consecutive-N@S``, one local segment over a question's videos); None for any other
            strategy. It raises ValueError for a form it refuses. None: every strategy samples each media.
        frames_ceiling: a ``uniform:N`` is the most frames a media is sent, and shorter media are expected
            (ReVSI: a budget's video holds just the budget's frames): they send all theirs without the
            "asks for more frames than ... has" warning.
    """

    frames: str | None = None
    max_new_tokens: int | None = None
    options: Mapping[str, Scalar] = field(default_factory=dict)
    frame_options: tuple[str, ...] = ()
    question_frames: Callable[[str], str | None] | None = None
    frames_ceiling: bool = False


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
        title: the name as its paper writes it (``VSI-Bench``), for messages; default: ``name``.
        media: where an item's media lies, checked before a run sends anything (:class:`MediaLayout`).
        subsets: the values of the loader's ``subset`` option besides the whole benchmark (:class:`Subset`).
        breakdown_options: the options ``breakdowns`` takes from the user, ``-B KEY=VALUE``
            (:class:`BreakdownOption`).
        error_taxonomy: the error categories of the benchmark's paper (None: ``spatialbench errors``
            uses VSI-Bench's general ones).
        pruned_ids: reads a bias-pruned id list (``score --pruned-ids``; None: the benchmark has none).
        task_words: ``task_words(task) -> str``: a task key in words for headings (None: the key with
            spaces for ``_``; :meth:`task_title`).
        write: ``write(items, folder) -> paths``: the items as the benchmark's files, which ``load(folder)``
            reads back (the benchmark's ``format`` module; None: no writer).
        protocols: its protocol tracks, which reports rank apart (MMSI-Video-Bench's settings); () none.
        table_loader: ``load`` as columns, no Item made per row (:meth:`load_table`; None: ``load``'s items).
    """

    name: str
    description: str
    load: Loader
    prompt_builder: BuilderFactory
    scoring: ScoringRules
    breakdowns: BreakdownFn | None = None
    defaults: RunDefaults = field(default_factory=RunDefaults)
    option_checks: Mapping[str, Callable[[Any], object]] = field(default_factory=dict)
    title: str = ""
    media: MediaLayout = field(default_factory=MediaLayout)
    subsets: tuple[Subset, ...] = ()
    breakdown_options: tuple[BreakdownOption, ...] = ()
    error_taxonomy: ErrorTaxonomy | None = None
    pruned_ids: Callable[[Any], set[str]] | None = None
    write: Writer | None = None
    task_words: Callable[[str], str] | None = None
    protocols: tuple[str, ...] = ()
    table_loader: TableLoader | None = None

    def task_title(self, task: str) -> str:
        """Return a task key in words (``task_words``, else ``object_counting`` → ``object counting``)."""
        return self.task_words(task) if self.task_words is not None else task.replace("_", " ")

    @property
    def display_name(self) -> str:
        """The title, else the registered name."""
        return self.title or self.name

    def subset(self, name: str) -> Subset:
        """Return the declared subset ``name``.

        Raises:
            ValueError: the benchmark declares no such subset (the message lists the ones it declares).
        """
        found = [subset for subset in self.subsets if subset.name == name]
        if found:
            return found[0]
        known = ", ".join(s.name for s in self.subsets) or "none"
        raise ValueError(f"{self.name} has no subset {name!r}; its subsets: {known}")

    def check_breakdown_options(self, options: Mapping[str, str]) -> None:
        """Refuse breakdown options the benchmark does not declare, or values they do not allow.

        Raises:
            BreakdownOptionError (a ValueError): an undeclared option (``.option`` names it).
            ValueError: a value outside the option's values (``unknown LABEL 'x'; known: ...``).
        """
        declared = {option.name: option for option in self.breakdown_options}
        for name, value in options.items():
            if name not in declared:
                raise BreakdownOptionError(name, self.name, self.breakdown_options)
            declared[name].check(value)

    def load_items(self, path: str | Path, **options: Any) -> LoadedItems:
        """Load the benchmark from ``path`` (a folder or an annotation file).

        A decoding error escaping a loader is named by ``path``; a missing column by the benchmark it fits.

        Raises:
            FileNotFoundError / ValueError: from the loader (an unreadable file is a
                ``records.errors.AnnotationFileError``, a ValueError, naming the file and line).
        """
        return self._loaded(self.load, path, options)

    def load_table(self, path: str | Path, **options: Any) -> LoadedTable:
        """:meth:`load_items` as columns (the scorer's input): ``table_loader``'s, else the items' fields.

        Raises:
            As :meth:`load_items`.
        """
        if self.table_loader is not None:
            return self._loaded(self.table_loader, path, options)
        items = self.load_items(path, **options)
        return LoadedTable.of_items(items, items.errors)

    def _loaded(self, load: Callable[..., T], path: str | Path, options: Mapping[str, Any]) -> T:
        from spatialbench.benchmarks.look_alike import WrongFileError, hinted  # it imports the registry
        try:
            return load(Path(path), **options)
        except (UnicodeError, WrongFileError) as error:
            raise hinted(path, error) from None

    def option_names(self) -> list[str] | None:
        """Return the loader's keyword options (all but the data path), sorted; None if it takes any."""
        parameters = list(inspect.signature(self.load).parameters.values())[1:]
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
            return None
        return sorted(p.name for p in parameters if p.kind is not inspect.Parameter.VAR_POSITIONAL)

    def check_options(self, options: Mapping[str, object]) -> None:
        """Check loader option names, value types and, where the benchmark checks them, values.

        Types are the loader's annotations (an option annotated as a ``Path`` must name an existing file).

        Raises:
            ValueError: an option the loader does not take (the message suggests near misses and lists the
                known ones). OptionError (a ValueError): a value of a type the loader does not take (the
                number 50 for text), a path that does not exist, or a value the benchmark's check refuses.
        """
        known = self.option_names()
        try:
            hints = typing.get_type_hints(self.load)
        except (NameError, TypeError):  # annotations that do not resolve: no type checks
            hints = {}
        for name, value in options.items():
            if name == "subset" and known is not None and name not in known:
                from spatialbench.benchmarks.subset_names import no_subsets  # the registry imports spec

                raise ValueError(no_subsets(self.name))
            if known is not None and name not in known:
                close, listed = near_misses(name, known), ", ".join(known) or "none"
                hint = f" did you mean {', '.join(map(repr, close))}?" if close else ""
                raise ValueError(f"unknown benchmark option {name!r};{hint} known: {listed}")
            check_kind(name, value, hints.get(name, Any))
            if name in self.option_checks:
                try:
                    self.option_checks[name](value)
                except ValueError as exc:
                    raise OptionError(name, str(exc)) from None

    def breakdown_tables(
        self, items: Iterable[Item], rows: pd.DataFrame, warnings: list[str] | None = None, **options: Any
    ) -> list[Table]:
        """Return the breakdown tables (empty when the benchmark has none).

        Options the breakdown function does not take are dropped when None and refused otherwise (a
        ``sub_bench`` for ReMindView-Bench is an error, not silently ignored). ``warnings``, when given and
        taken by the function, collects lines about tables left out or items outside a table.

        Raises:
            BreakdownOptionError (a ValueError): an option (not None) the breakdown does not take;
                whatever the benchmark's function raises for bad options (e.g. an unknown sub-benchmark).
        """
        if self.breakdowns is None:
            return []
        taken = set(inspect.signature(self.breakdowns).parameters)
        refused = [name for name, value in options.items() if name not in taken and value is not None]
        if refused:
            raise BreakdownOptionError(refused[0], self.name, self.breakdown_options)
        kept = {name: value for name, value in options.items() if name in taken}
        if warnings is not None and "warnings" in taken:
            kept["warnings"] = warnings
        return self.breakdowns(list(items), rows, **kept)
