"""Checks of a run's configuration that can fail before anything is sent (one clear message each)."""

from __future__ import annotations

from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.registry import UnknownNameError
from spatialbench.runs.config import RunConfig
from spatialbench.scoring.metrics import MRA_MODES


class RunSetupError(ValueError):
    """A run that cannot start: bad output folder, unknown option or mode, no items; nothing was sent."""


def check_config(config: RunConfig, spec: BenchmarkSpec) -> None:
    """Check the scoring modes and benchmark options of ``config`` against ``spec`` (not ``out``).

    Raises:
        RunSetupError: ``scoring.extract`` or ``scoring.mra`` is not a mode of the benchmark; a benchmark
            option the loader does not take (the message lists the known ones) or a value it refuses.
    """
    try:
        spec.scoring.extractors(config.scoring.extract)
        MRA_MODES.get(config.scoring.mra)
        spec.check_options(config.data.options)
    except (ValueError, UnknownNameError) as exc:
        raise RunSetupError(str(exc).strip("'\"")) from None
