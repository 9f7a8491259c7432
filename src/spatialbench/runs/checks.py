"""Checks of a run's configuration that can fail before anything is sent (one clear message each)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping

from spatialbench.benchmarks.registry import get_benchmark
from spatialbench.runs.config import RunConfig


class RunSetupError(ValueError):
    """A run that cannot start: bad output folder, unknown option or mode, no items; nothing was sent."""


def check_config(config: RunConfig) -> None:
    """Check the scoring modes and benchmark options of ``config`` (the CLI checks ``--out`` itself).

    Raises:
        RunSetupError: ``extract`` or ``mra`` is not a mode of the benchmark; a benchmark option the
            loader does not take (the message lists the known ones).
        UnknownNameError: unknown benchmark.
    """
    spec = get_benchmark(config.benchmark)
    _check_modes(spec, config)
    _check_options(spec.load, config.benchmark_options)


def _check_modes(spec, config: RunConfig) -> None:  # type: ignore[no-untyped-def]
    from spatialbench.registry import UnknownNameError
    from spatialbench.scoring.metrics import MRA_MODES

    try:
        spec.extractors(config.extract or spec.default_extract)
        MRA_MODES.get(config.mra)
    except (ValueError, UnknownNameError) as exc:
        raise RunSetupError(str(exc).strip("'\"")) from None


def _check_options(load, options: Mapping[str, object]) -> None:  # type: ignore[no-untyped-def]
    """Compare option names with the loader's keyword parameters (all but the data path)."""
    parameters = list(inspect.signature(load).parameters.values())[1:]
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return
    known = sorted(p.name for p in parameters if p.kind is not inspect.Parameter.VAR_POSITIONAL)
    for name in options:
        if name not in known:
            raise RunSetupError(f"unknown benchmark option {name!r}; known: {', '.join(known) or 'none'}")
