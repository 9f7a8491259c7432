"""Validate once, fail once: :func:`prepare` turns a :class:`RunConfig` into a :class:`PreparedRun`.

Every check that needs no request and no decoded frame runs here, once, before any folder is made: the
model name and its URLs, the back end's options, the benchmark and its loader options, the prompt fields,
the strategy and its parameters (its meta-info read), the benchmark defaults (:func:`resolve_config`), the
scoring modes, the shard, the items (loaded and selected) and their media
(:func:`~spatialbench.runs.preflight.check_media`). The runner (:mod:`spatialbench.runs.runner`) takes the
prepared run and only executes it; the one check left to it needs the back end and the first request's
frames (the image limit, :func:`~spatialbench.runs.preflight.check_image_limit`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.option_kinds import OptionError
from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.media.errors import MediaError
from spatialbench.media.relevance import ImageTextScorer
from spatialbench.media.sampling import parse_strategy
from spatialbench.models.base import Backend
from spatialbench.models.errors import BackendError
from spatialbench.models.resolve import check_backend_options, check_model_urls, load_backend, model_family
from spatialbench.prompting.builders import PromptBuilder
from spatialbench.prompting.config import ModelFamily
from spatialbench.prompting.strategies import Strategy, build_strategy
from spatialbench.records.item import Item
from spatialbench.records.rows import LoadedItems
from spatialbench.runs.baseline import check_model_name
from spatialbench.runs.checks import ConfigValueError, RunSetupError, check_config, check_selection
from spatialbench.runs.config import RunConfig
from spatialbench.runs.defaults import apply_benchmark_defaults
from spatialbench.runs.dialogue import prepare_strategy
from spatialbench.runs.folder import HUMAN_PREFIX, baseline_name
from spatialbench.runs.plan import data_root, select_items
from spatialbench.runs.preflight import check_media
from spatialbench.runs.record import load_run_items
from spatialbench.runs.shard import apply_shard

BackendFactory = Callable[[], Backend]
_MODEL_OPTIONS = ("model", "options")


@dataclass(frozen=True)
class PreparedRun:
    """A run that passed every check it can pass before sending anything.

    Attributes:
        config: the resolved config (benchmark defaults, strategy parameters and model family filled in;
            under a shard, ``data.ids`` keeps the shard's ids): what ``config.json`` records.
        spec: the benchmark (a copy whose loader keeps the shard's items when the run is a shard).
        notes: lines to show the user (each benchmark default filled in).
        builder: the benchmark's prompt builder for ``config.prompt``.
        strategy: the prompting strategy, its meta-info scenes read.
        backend: builds the back end (None for a baseline run, which has none).
        baseline: the baseline the run is (``chance-random``), None for a model run.
        loaded: the benchmark's items (the shard's) and the rows that could not be read.
        selected: the items the run answers (``data.ids`` and ``data.limit`` applied), in file order.
        scorer: the ``aks:N`` image–text scorer, loaded (None without ``aks:N`` frames, blind or baseline).
    """

    config: RunConfig
    spec: BenchmarkSpec
    notes: tuple[str, ...]
    builder: PromptBuilder
    strategy: Strategy
    backend: BackendFactory | None
    baseline: str | None
    loaded: LoadedItems
    selected: tuple[Item, ...]
    scorer: ImageTextScorer | None = None


def resolve_config(
    config: RunConfig, spec: BenchmarkSpec, baseline: str | None = None
) -> tuple[RunConfig, list[str]]:
    """Fill settings left to defaults: the benchmark's, the strategy's parameters and pre-prompt, the family.

    The benchmark's frames, answer budget and loader options come from
    :func:`~spatialbench.runs.defaults.apply_benchmark_defaults` (its notes are returned, to print); a
    ``baseline`` run has no model family. Idempotent.

    Raises:
        RunSetupError: a frame strategy that conflicts with a frame-choosing benchmark option.
        UnknownNameError: an unknown model provider or strategy.
        ValueError: a strategy parameter the strategy does not take, or of the wrong type.
    """
    config, notes = apply_benchmark_defaults(config, spec)
    strategy = build_strategy(config.strategy)
    config = config.updated("strategy", params=strategy.parameters())
    config = _strategy_pre_prompt(config, spec, strategy.pre_prompt())
    if config.prompt.model_family is not None or baseline is not None:
        return config, notes
    family = ModelFamily(model_family(config.model.name))
    return config.updated("prompt", model_family=family), notes


def _strategy_pre_prompt(config: RunConfig, spec: BenchmarkSpec, text: str | None) -> RunConfig:
    """Record a strategy's own pre-prompt as the prompt field where the builder has one and none is given."""
    known: frozenset[str] = getattr(spec.prompt_builder, "known_overrides", frozenset())
    overrides = config.prompt.overrides
    if text is None or "pre_prompt" not in known or "pre_prompt" in overrides:
        return config
    return config.updated("prompt", overrides={**overrides, "pre_prompt": text})


def prepare(config: RunConfig, backend: Backend | None = None) -> PreparedRun:
    """Check ``config`` and return the run ready to execute; nothing is written, nothing sent.

    ``backend``: a back end object to run with (tests, notebooks) instead of the one ``model.name``
    names; the model name is then not checked. Without one, a baseline name (``chance-random``) makes
    a baseline run.

    Raises:
        UnknownNameError: an unknown model provider, benchmark or strategy (near misses suggested).
        BackendError: a malformed model URL.
        ConfigValueError: a refused ``model.options`` or ``data.options`` value (``field`` names it).
        ValueError: a prompt field or strategy parameter refused (pydantic's ValidationError names it).
        RunSetupError: a frame strategy that conflicts with the benchmark's options, a scoring mode the
            benchmark lacks, a strategy that does not apply to a baseline, unreadable meta-info, data
            that cannot be read or holds no item, missing or unusable media; a human evaluation's model
            (``human:NAME``, continued in ``spatialbench serve``).
        SelectionError: ``data.ids`` the benchmark lacks.
        ConfigValueError: also a selection of nothing (runs/checks.py).
    """
    baseline = baseline_name(config.model.name) if backend is None else None
    factory = _backend_factory(config, baseline) if backend is None else functools.partial(_given, backend)
    spec = get_benchmark(config.data.benchmark)
    _check_benchmark_options(spec, config)
    check_selection(config)
    config, notes = resolve_config(config, spec, baseline)  # unknown strategies, bad parameters fail here
    check_config(config, spec, baseline)
    builder = spec.prompt_builder(config.prompt)  # unknown prompt fields too (the model family resolved)
    config, spec = apply_shard(config, spec)  # data.shard: only the slice's items (runs/shard.py)
    strategy = prepare_strategy(config)
    loaded = load_run_items(config, spec)
    selected = tuple(select_items(loaded, config.data.ids, config.data.limit))
    scorer = None
    if baseline is None and not config.prompt.blind and selected:
        check_media(selected, data_root(config.data.path), spec.media, parse_strategy(config.frame_strategy))
        scorer = _aks_scorer(config)
    return PreparedRun(config, spec, tuple(notes), builder, strategy, factory, baseline, loaded, selected,
                       scorer)


def _aks_scorer(config: RunConfig) -> ImageTextScorer | None:
    """Load the ``aks:N`` scorer once, before the run: a model that cannot load stops it before any item.

    Raises:
        RunSetupError: the model cannot be loaded (one line naming it).
    """
    if config.media.aks_model is None or not config.frame_strategy.startswith("aks:"):
        return None
    scorer = ImageTextScorer(config.media.aks_model, config.aks_features)
    try:
        scorer.load()
    except MediaError as exc:
        raise RunSetupError(f"--aks-model: {' '.join(exc.reason.split())}") from None
    return scorer


def _given(backend: Backend) -> Backend:
    return backend


def _backend_factory(config: RunConfig, baseline: str | None) -> BackendFactory | None:
    """Check the model name, its URLs and ``model.options``; return what builds the back end.

    Raises:
        RunSetupError: a human evaluation's model (``human:NAME``: the run folder's ``config.json``).
        UnknownNameError, BackendError: as :func:`prepare`. ConfigValueError: ``model.options`` refused
            (field ``model.options``), or given to a baseline.
    """
    name = config.model.name
    if name.startswith(HUMAN_PREFIX):  # its answers come from a person in the browser, not from a back end
        raise RunSetupError(_human_run(config))
    check_model_name(name)
    check_model_urls(name)
    if baseline is not None:
        if config.model.options:
            raise ConfigValueError(_MODEL_OPTIONS, f"{name} is a baseline: it takes no --model-option")
        return None
    try:
        options = config.backend_options()
        checked = check_backend_options(name, options) if options else {}
    except (BackendError, ValueError) as exc:
        raise ConfigValueError(_MODEL_OPTIONS, str(exc)) from None
    return functools.partial(load_backend, name, api=config.model.api_settings(), seed=config.model.seed,
                             **checked)


def _check_benchmark_options(spec: BenchmarkSpec, config: RunConfig) -> None:
    """Check ``data.options`` against the loader (as given: the defaults filled in later are its own).

    Raises:
        ConfigValueError: field ``data.options.<name>`` for a refused value, ``data.options`` for an
            option the loader does not take (the message lists the known ones).
    """
    try:
        spec.check_options(config.data.options)
    except OptionError as exc:
        raise ConfigValueError(("data", "options", exc.option), exc.reason, str(exc)) from None
    except ValueError as exc:
        raise ConfigValueError(("data", "options"), str(exc), str(exc)) from None


def _human_run(config: RunConfig) -> str:
    """Say that a human evaluation is continued in ``serve`` (its folder is ``WORKDIR/human-NAME``)."""
    person = config.model.name.removeprefix(HUMAN_PREFIX)
    serve = (f"spatialbench serve --data {config.data.path} --benchmark {config.data.benchmark} "
             f"--workdir {Path(config.out).parent}")
    return (f"model {config.model.name!r} is a human evaluation: human runs cannot be re-run by "
            f"`spatialbench run`; continue it with `{serve}`, page Human evaluation, name {person}")
