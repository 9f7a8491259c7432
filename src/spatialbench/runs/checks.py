"""Checks of a run's configuration that can fail before anything is sent (one clear message each)."""

from __future__ import annotations

from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.errors import SpatialBenchError
from spatialbench.registry import UnknownNameError
from spatialbench.runs.config import RunConfig
from spatialbench.scoring.metrics import MRA_MODES


class RunSetupError(SpatialBenchError, ValueError):
    """A run that cannot start: bad output folder, unknown option or mode, no items; nothing was sent."""


class RunFolderError(RunSetupError):
    """A run folder whose configuration, store or scores cannot be read; the message names the file."""


class ConfigValueError(RunSetupError):
    """A run config value refused: ``field`` is its path (``("data", "options", "subset")``), ``reason`` why.

    ``location`` is the dotted path (``data.options.subset``); the message is ``message`` when given, else
    ``<location>: <reason>``. Callers that know where the value came from (a run file, a flag) word it.
    """

    def __init__(self, field: tuple[str, ...], reason: str, message: str | None = None) -> None:
        self.field, self.reason = field, reason
        self.location = ".".join(field)
        super().__init__(message or f"{self.location}: {reason}")


def check_config(config: RunConfig, spec: BenchmarkSpec, baseline: str | None) -> None:
    """Check the scoring modes of ``config`` against ``spec`` and its strategy against ``baseline``.

    ``baseline``: the baseline the run is (``chance-random``), None for a model run. (Loader options are
    checked by :func:`~spatialbench.runs.prepare.prepare`, as given, before the benchmark's are filled in.)

    Raises:
        RunSetupError: ``scoring.extract`` or ``scoring.mra`` is not a mode of the benchmark; a prompting
            strategy other than ``direct`` for a baseline model (it sends no request).
    """
    if baseline is not None and config.strategy.name != "direct":
        raise RunSetupError(f"strategy {config.strategy.name} does not apply to the baseline {baseline} "
                            "(it sends no request; its answers come from the items)")
    try:
        spec.scoring.extractors(config.scoring.extract)
        MRA_MODES.get(config.scoring.mra)
    except (ValueError, UnknownNameError) as exc:
        raise RunSetupError(str(exc).strip("'\"")) from None


def check_selection(config: RunConfig) -> None:
    """Refuse a selection of nothing, as the user gave it (before a shard narrows ``data.ids``).

    Raises:
        ConfigValueError: ``data.limit`` 0 or ``data.ids`` empty (nothing to run).
    """
    if config.data.limit == 0:
        raise ConfigValueError(("data", "limit"), "0 selects no item: nothing to run")
    if config.data.ids == ():
        raise ConfigValueError(("data", "ids"), "lists no item id: nothing to run")


def check_blind_frames(config: RunConfig) -> None:
    """Refuse frames given for a blind run (``spatialbench run``: the user's flags and run file).

    The library lets a config keep its frames with ``prompt.blind`` (a blind copy of a vision config;
    the frames are not sent, and ``compare`` ignores a blind run's media settings); the command refuses
    the contradiction, before the benchmark's default frames are filled in.

    Raises:
        ConfigValueError: ``media.frames`` set for a ``prompt.blind`` run.
    """
    if config.prompt.blind and config.media.frames is not None:
        raise ConfigValueError(("media", "frames"), f"{config.media.frames} given for a blind run, which "
                               "sends no frames; give frames or blind, not both")
