"""A finished run read back: :class:`RunFolder`, the one read-only view of a run folder (:func:`open_run`).

A run folder (``spatialbench run --out RUN``, a baseline run, a merged run, a human run written by
``spatialbench serve``) holds ``config.json`` (``{"config": RunConfig, "environment", "backend", "prompt"}``,
plus ``merged_from`` for a merge), ``run.sqlite`` (:mod:`spatialbench.runs.store`) and, once scored,
``scores.json`` / ``items.csv``. ``score --run``, ``breakdown``, ``merge``, every analysis, ``report`` and
``serve`` read runs through this class, so each sees the same item selection (ids, limit, **shard**,
exclusions) and the same score: :meth:`RunFolder.score` is the run scored as it scored itself. Nothing
here writes to the folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.records.files import read_text
from spatialbench.records.item import Item
from spatialbench.records.rows import LoadedItems
from spatialbench.registry import UnknownNameError
from spatialbench.runs.checks import RunFolderError
from spatialbench.runs.config import RunConfig
from spatialbench.runs.imported import imported_extraction, imported_source
from spatialbench.runs.items_table import check_numeric_scores
from spatialbench.runs.plan import select_items
from spatialbench.runs.shard import Shard, parse_shard, shard_ids
from spatialbench.runs.store.reader import StoredRow, StoredTurn, StoreReader
from spatialbench.runs.summary import STORE_NAME
from spatialbench.scoring.baselines import BASELINES
from spatialbench.scoring.rules import ScoringRules
from spatialbench.scoring.scorer import ScoreResult, score_items

CONFIG_NAME = "config.json"
ITEMS_NAME = "items.csv"
HUMAN_PREFIX = "human:"
"""Model names of human evaluations (``human:NAME``), the papers' "Human Level" rows."""


def score_answered(
    sample: Sequence[Item], responses: Mapping[str, str | None], rules: ScoringRules, *, extract: str | None,
    mra: str,
) -> ScoreResult:
    """Score a human run: only the ``sample`` items with a response (issue 21).

    An unanswered item of a human run in progress is not wrong yet, so it is left out rather than scored
    0; while some are unanswered the first warning reads "in progress: K of N items answered; only the
    answered ones are scored". ``serve`` (after every answer), ``score --run`` and ``report`` all score a
    human run through this function. Raises as :func:`~spatialbench.scoring.scorer.score_items`.
    """
    done = [item for item in sample if item.id in responses]
    result = score_items(done, responses, rules, extract=extract, mra=mra)
    if len(done) < len(sample):
        note = f"in progress: {len(done)} of {len(sample)} items answered; only the answered ones are scored"
        result = replace(result, warnings=[note, *result.warnings])
    return result


def baseline_name(model: str) -> str | None:
    """Return the baseline a model name names (``chance-random:demo`` → ``chance-random``), else None."""
    provider = model.partition(":")[0]
    return provider if provider in BASELINES else None


@dataclass(frozen=True)
class Selection:
    """Which items of its benchmark a run answered.

    Attributes:
        ids: only these (None: every item; an empty tuple selects none). limit: the first N of the
            selection (per shard for a sharded or merged run). shard: the slice a ``--shard K/N`` run
            holds. shards: the slices a merged run joined (``config.json``'s ``merged_from``).
    """

    ids: tuple[str, ...] | None = None
    limit: int | None = None
    shard: Shard | None = None
    shards: tuple[Shard, ...] = ()

    def select(self, items: Sequence[Item]) -> list[Item]:
        """Return the selected items in benchmark order (``ids`` and ``limit`` apply within each shard).

        Raises:
            SelectionError: an unsharded run's ids that ``items`` lack (a shard's ids outside its slice
                belong to other shards).
        """
        parts: Sequence[Shard | None] = self.shards or (self.shard,)
        if parts == (None,):
            return select_items(items, self.ids, self.limit)
        chosen: set[str] = set()
        for shard in parts:
            assert shard is not None
            part = [it for it in items if shard.holds(it.id)]
            ids = None if self.ids is None else shard_ids(self.ids, shard)
            chosen |= {it.id for it in select_items(part, ids, self.limit)}
        return [it for it in items if it.id in chosen]


@dataclass(frozen=True, eq=False)
class RunFolder:
    """One run folder, read lazily: each part is read on first use and kept.

    Attributes:
        path: the folder. name: its label in tables (the folder name unless given).
        record: ``config.json`` as written; ``raw_config`` its ``config`` (JSON), ``config`` the same
            validated as a :class:`RunConfig`.
    """

    path: Path
    record: dict[str, Any] = field(repr=False)  # the whole config.json: repr names the folder only
    name: str = ""
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    # --- what the run was ----------------------------------------------------------------------------
    @property
    def raw_config(self) -> dict[str, Any]:
        """``config.json``'s ``config`` as JSON (absolute ``data.path``)."""
        config: dict[str, Any] = self.record["config"]
        return config

    @cached_property
    def config(self) -> RunConfig:
        """The run's configuration, validated.

        Raises:
            RunFolderError: ``config`` does not validate (the message names ``config.json``).
        """
        try:
            return RunConfig.model_validate(self.raw_config)
        except ValueError as exc:  # pydantic ValidationError
            first = " ".join(str(exc).splitlines()[:3])
            where = self.path / CONFIG_NAME
            raise RunFolderError(f"{where}: field 'config' does not validate: {first}") from None

    @property
    def benchmark(self) -> str:
        """The registered benchmark the run evaluated."""
        return str(self.raw_config["data"]["benchmark"])

    @property
    def model(self) -> str:
        """The model name as given to the run (``human:NAME`` for a human evaluation)."""
        return str(self.raw_config["model"]["name"])

    @property
    def baseline(self) -> str | None:
        """The chance baseline the run is (``chance-random``...), None for a model or human run."""
        return baseline_name(self.model)

    @property
    def blind(self) -> bool:
        """Whether the run sent no media (VSI-Bench Sec. 4 / App. C.4 "vision disabled")."""
        return bool((self.raw_config.get("prompt") or {}).get("blind"))

    @property
    def role(self) -> str:
        """``chance`` (a chance baseline), ``blind`` or ``vision``: how an analysis pairs runs."""
        if self.baseline is not None:
            return "chance"
        return "blind" if self.blind else "vision"

    @property
    def kind(self) -> str:
        """``baseline``, ``human``, ``blind`` or ``model``: the leaderboard section of the run."""
        if self.baseline is not None:
            return "baseline"
        if self.model.startswith(HUMAN_PREFIX):
            return "human"
        return "blind" if self.blind else "model"

    @cached_property
    def spec(self) -> BenchmarkSpec:
        """The run's benchmark (RunFolderError naming the folder when it is not registered)."""
        try:
            return get_benchmark(self.benchmark)
        except UnknownNameError as exc:
            raise RunFolderError(f"{self.path}: {exc}") from None

    @property
    def data_path(self) -> Path:
        """The benchmark data the run read (``data.path``, recorded absolute)."""
        return Path(self.raw_config["data"]["path"])

    @property
    def options(self) -> dict[str, Any]:
        """The loader options the run loaded its items with."""
        return dict(self.raw_config["data"].get("options") or {})

    @cached_property
    def selection(self) -> Selection:
        """The run's item selection, from ``config.json`` (``merged_from`` for a merged run)."""
        data = self.raw_config["data"]
        ids = data.get("ids")
        shard = data.get("shard")
        try:
            merged = tuple(parse_shard(str(part["shard"])) for part in self.record.get("merged_from") or ())
            own = None if shard is None else parse_shard(str(shard))
        except (ValueError, KeyError, TypeError) as exc:
            field = "merged_from" if shard is None or self.record.get("merged_from") else "data.shard"
            raise RunFolderError(f"{self.path / CONFIG_NAME}: {field}: {exc}") from None
        return Selection(None if ids is None else tuple(map(str, ids)), data.get("limit"), own, merged)

    # --- its items -----------------------------------------------------------------------------------
    def load(self, data: str | Path | None = None, **options: Any) -> LoadedItems:
        """Load the run's benchmark from ``data`` (default: the run's data path) with the run's options.

        ``options`` override the recorded loader options (``pruned_ids``, a subset).

        Raises:
            FileNotFoundError / ValueError: from the benchmark's loader (naming the file).
        """
        path = data if data is not None else self.data_path
        return self.spec.load_items(path, **{**self.options, **options})

    def items(self, loaded: Sequence[Item] | None = None, exclude: Iterable[str] = ()) -> list[Item]:
        """Return the items the run selected, in benchmark order, less ``exclude`` (review flags).

        ``loaded``: the benchmark's items (default: :meth:`load` of the run's data).

        Raises:
            RunFolderError: the run's data cannot be read (the message names the folder and the path).
            SelectionError: ids of the run that the data lacks.
        """
        if loaded is None:
            try:
                loaded = list(self.load())
            except (ValueError, OSError) as exc:
                raise RunFolderError(
                    f"{self.path}: benchmark data of the run ({self.data_path}) cannot be read: {exc}"
                ) from None
        dropped = set(exclude)
        return [item for item in self.selection.select(loaded) if item.id not in dropped]

    # --- what it stored ------------------------------------------------------------------------------
    @property
    def store(self) -> StoreReader:
        """The run's store, read-only (FileNotFoundError when the folder has none)."""
        return StoreReader(self.path / STORE_NAME)

    @property
    def has_store(self) -> bool:
        """Whether the folder holds a ``run.sqlite``."""
        return (self.path / STORE_NAME).is_file()

    def answers(self) -> dict[str, StoredRow]:
        """Item id → its latest stored row (an ``ok`` row beats later failed ones).

        Raises:
            FileNotFoundError: no ``run.sqlite``. RunFolderError: not a readable run store.
        """
        if "answers" not in self._cache:
            self._cache["answers"] = self.store.shown_rows()
        answers: dict[str, StoredRow] = self._cache["answers"]
        return answers

    def responses(self) -> dict[str, str]:
        """Item id → the answer of its latest ``ok`` row: what :meth:`score` scores."""
        return {i: row.response for i, row in self.answers().items()
                if row.status == "ok" and row.response is not None}

    def answerability(self) -> dict[str, dict[str, Any]]:
        """Item id → the answerability its run recorded for the frames sent (synthetic scenes only).

        ``{"answerable", "missing", "visible_count"}`` (:func:`spatialbench.media.visibility.answerability`)
        of the item's latest row; items without it (no visibility, no named object, blind, no row) absent.

        Raises:
            FileNotFoundError / RunFolderError: see :meth:`answers`.
        """
        return {i: row.prompt["answerability"] for i, row in self.answers().items()
                if isinstance(row.prompt.get("answerability"), dict)}

    def turn_answers(self, turn: str) -> dict[str, StoredTurn]:
        """Item id → its latest ``ok`` strategy turn named ``turn`` (``cot``, ``explain``, ``map``...).

        Raises:
            FileNotFoundError / RunFolderError: see :meth:`answers`.
        """
        return {row.item_id: row for row in self.store.turns(turn) if row.response is not None}

    def stored(self, item_id: str) -> StoredRow | None:
        """Return the item's row to show (``ok`` first, else the latest); None when none or no store."""
        return self.store.item_row(item_id) if self.has_store else None

    def stored_turns(self, item_id: str) -> list[StoredTurn]:
        """Return the turns (any status, oldest first) behind the item's shown row; [] when none or no store.

        Raises:
            RunFolderError: not a readable run store.
        """
        return self.store.item_turns(item_id) if self.has_store else []

    def shown_turns(self) -> dict[str, list[StoredTurn]]:
        """Item id → :meth:`stored_turns` of every item, read at once ({} without a store).

        Raises:
            RunFolderError: not a readable run store.
        """
        return self.store.shown_turns() if self.has_store else {}

    # --- how it scored -------------------------------------------------------------------------------
    def score(
        self, items: Sequence[Item] | None = None, *, extract: str | None = None, mra: str | None = None,
        exclude: Iterable[str] = (),
    ) -> ScoreResult:
        """Return the run scored as it scored itself: its selection, its modes, its latest ``ok`` answers.

        ``items``: the benchmark's loaded items (default: the run's data); the run's selection applies to
        them. ``extract`` / ``mra`` default to the run's recorded modes. A baseline run is scored as
        ``spatialbench baseline`` scores it and a human run as ``serve`` does (:func:`score_answered`), so the
        result equals the run's own ``scores.json``.

        Raises:
            ValueError: ``extract`` for a baseline run, an unknown mode; SelectionError: ids the items
                lack. FileNotFoundError / RunFolderError: no or an unreadable store or data.
        """
        selected = self.items(items, exclude)
        scoring = self.raw_config.get("scoring") or {}
        mra = mra or str(scoring.get("mra") or "official")
        if self.baseline is not None:
            if extract is not None:
                why = "it has no answers to read"
                raise ValueError(f"--extract does not apply to a {self.baseline} run ({why})")
            return BASELINES.get(self.baseline)(selected, self.spec.scoring, mra=mra)
        scorer = score_answered if self.kind == "human" else score_items
        result = scorer(selected, self.responses(), self.spec.scoring,
                        extract=extract or scoring.get("extract"), mra=mra)
        if (source := imported_source(self.record)) is not None:  # which text of the tool's file was read
            result = replace(result, extract=imported_extraction(source, result.extract))
        return result

    @cached_property
    def rows(self) -> pd.DataFrame:
        """One row per scored item (``items.csv``): ``id``, ``task``, ``dataset`` as text, plus ``answered``.

        Raises:
            RunFolderError: no or an unreadable ``items.csv`` (the run was not scored yet: ``spatialbench
                run`` writes it when it finishes), or one without ``id``, ``task`` and ``score``, or a score
                that is no number.
        """
        path = self.path / ITEMS_NAME
        if not path.is_file():
            raise RunFolderError(f"{self.path}: not a scored run folder (no {ITEMS_NAME})")
        try:
            rows = pd.read_csv(path, dtype={"id": str, "task": str, "dataset": str})
        except (ValueError, OSError) as exc:
            raise RunFolderError(f"{path}: unreadable ({exc})") from None
        missing = {"id", "task", "score"} - set(rows.columns)
        if missing:
            raise RunFolderError(f"{path}: missing column(s) {', '.join(sorted(missing))}")
        check_numeric_scores(rows, path)
        rows["answered"] = rows["extracted"].notna() if "extracted" in rows else True
        return rows

    @property
    def scored(self) -> bool:
        """Whether the run has been scored (its ``items.csv`` exists)."""
        return (self.path / ITEMS_NAME).is_file()


def open_run(path: str | Path, name: str | None = None, *, scored: bool = False) -> RunFolder:
    """Open the run folder at ``path`` (reads ``config.json``; everything else on first use).

    ``scored=True`` also requires the scores (``items.csv``, read at once), as analyses of scored runs do.

    Raises:
        RunFolderError: no folder or ``config.json`` (``not a run folder``; ``not a scored run folder``
            with ``scored``), a ``config.json`` that is not a run configuration (the message names it and
            why), or with ``scored`` an unreadable ``items.csv``.
    """
    folder = Path(path)
    config_path = folder / CONFIG_NAME
    kind = "scored run folder" if scored else "run folder"
    if not config_path.is_file():
        raise RunFolderError(f"{folder}: not a {kind} (no {CONFIG_NAME})")
    try:
        record = json.loads(read_text(config_path))
        if not isinstance(record, dict):  # "[]" gave a raw "list indices must be integers" TypeError
            raise TypeError(f"it holds a JSON {type(record).__name__}, not an object with a 'config' field")
        config = record["config"]
        if not (isinstance(config["data"]["benchmark"], str) and isinstance(config["model"]["name"], str)):
            raise TypeError("benchmark and model name must be text")
        config["data"]["path"]  # noqa: B018  (every run records its data)
    except (ValueError, KeyError, TypeError, UnicodeError) as exc:  # JSONDecodeError is a ValueError
        why = f"{type(exc).__name__}: {exc}"
        raise RunFolderError(f"{config_path}: not a run configuration ({why})") from None
    run = RunFolder(folder, record, name or folder.resolve().name)
    if scored:
        run.rows  # noqa: B018  (read now: a folder that is not scored fails here, naming items.csv)
    return run
