"""A benchmark's own run defaults: frame strategy, answer budget and loader options (``BenchmarkSpec``).

A run that leaves ``frames``, ``max_new_tokens`` or a loader option unset gets the benchmark's value, so
the resolved :class:`RunConfig` (written to ``config.json``) records what was actually used. A frame strategy
that would re-sample frames a loader option already chose (MMSI-Video-Bench ``setting`` with ``--frames
uniform:8``) is refused rather than silently overridden.
"""

from __future__ import annotations

from spatialbench.benchmarks.registry import get_benchmark
from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.config import DEFAULT_FRAMES, RunConfig


def apply_benchmark_defaults(config: RunConfig) -> tuple[RunConfig, list[str]]:
    """Fill the settings ``config`` leaves to its benchmark; returns the config and notes to print.

    Notes name each loader option filled in (e.g. ``setting=uniform-50``); filling frames or the answer
    budget is not noted (both are recorded in the config). A frame-choosing option is not filled in when
    the run names its own frame strategy (``--frames uniform:8`` samples each video itself; a note says so).
    Idempotent: a resolved config comes back as is.

    Raises:
        RunSetupError: a loader option in ``frame_options`` is set and ``frames`` is another strategy than
            the benchmark's ``default_frames``. UnknownNameError: unknown benchmark.
    """
    spec = get_benchmark(config.benchmark)
    options = dict(config.benchmark_options)
    notes = []
    own_frames = config.frames is not None and config.frames != spec.default_frames
    for name, value in spec.run_options.items():
        if name in options:
            continue
        if own_frames and name in spec.frame_options:  # the user samples the frames: no default setting
            notes.append(
                f"note: {spec.name}: --frames {config.frames} samples the media itself; no {name} applied "
                f"(the paper's is {name}={value})"
            )
            continue
        options[name] = value
        notes.append(
            f"note: {spec.name}: no {name} given; using the paper's default {name}={value} "
            f"(choose another with -o {name}=...)"
        )
    chosen = [name for name in spec.frame_options if name in options]
    if chosen and config.frames is not None and config.frames != spec.default_frames:
        raise RunSetupError(
            f"--frames {config.frames} conflicts with {chosen[0]}={options[chosen[0]]}: the {chosen[0]} "
            f"already chooses the frames sent; drop --frames (or use --frames {spec.default_frames})"
        )
    update = {
        "frames": config.frames or spec.default_frames or DEFAULT_FRAMES,
        "max_new_tokens": config.max_new_tokens or spec.max_new_tokens,
        "benchmark_options": options,
    }
    return config.model_copy(update=update), notes
