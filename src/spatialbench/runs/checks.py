"""Checks of a run's configuration that can fail before anything is sent (one clear message each)."""

from __future__ import annotations

from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.errors import SpatialBenchError
from spatialbench.registry import UnknownNameError
from spatialbench.runs.config import RunConfig
from spatialbench.scoring.baselines import BASELINES
from spatialbench.scoring.metrics import MRA_MODES


class RunSetupError(SpatialBenchError, ValueError):
    """A run that cannot start: bad output folder, unknown option or mode, no items; nothing was sent."""


class RunFolderError(RunSetupError):
    """A run folder whose configuration, store or scores cannot be read; the message names the file."""


def check_config(config: RunConfig, spec: BenchmarkSpec) -> None:
    """Check the scoring modes and benchmark options of ``config`` against ``spec`` (not ``out``).

    Raises:
        RunSetupError: ``scoring.extract`` or ``scoring.mra`` is not a mode of the benchmark; a benchmark
            option the loader does not take (the message lists the known ones) or a value it refuses; a
            prompting strategy other than ``direct`` for a baseline model (it sends no request).
    """
    baseline = config.model.name.partition(":")[0]
    if baseline in BASELINES and config.strategy.name != "direct":
        raise RunSetupError(f"strategy {config.strategy.name} does not apply to the baseline {baseline} "
                            "(it sends no request; its answers come from the items)")
    try:
        spec.scoring.extractors(config.scoring.extract)
        MRA_MODES.get(config.scoring.mra)
        spec.check_options(config.data.options)
    except (ValueError, UnknownNameError) as exc:
        raise RunSetupError(str(exc).strip("'\"")) from None
