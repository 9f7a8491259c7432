"""A benchmark's own run defaults: frame strategy, answer budget and loader options (``RunDefaults``).

A run that leaves ``media.frames``, ``model.max_new_tokens`` or a loader option unset gets the benchmark's
value, so the resolved :class:`RunConfig` (written to ``config.json``) records what was actually used. A
frame strategy that would re-sample frames a loader option already chose (MMSI-Video-Bench ``setting``
with ``--frames uniform:8``) is refused rather than silently overridden.
"""

from __future__ import annotations

from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.config import DEFAULT_FRAMES, RunConfig


def apply_benchmark_defaults(config: RunConfig, spec: BenchmarkSpec) -> tuple[RunConfig, list[str]]:
    """Fill the settings ``config`` leaves to its benchmark ``spec``; returns the config and notes to print.

    Notes name each loader option filled in (e.g. ``setting=uniform-50``); filling frames or the answer
    budget is not noted (both are recorded in the config). A frame-choosing option is not filled in when
    the run names its own frame strategy (``--frames uniform:8`` samples each video itself; a note says so).
    Idempotent: a resolved config comes back as is.

    A strategy the benchmark samples per question (``RunDefaults.question_frames``: MMSI-Video-Bench
    ``consecutive:N@S``) becomes the value of its frame option, and the media frames the benchmark's own.

    Raises:
        RunSetupError: a loader option in ``frame_options`` is set and ``media.frames`` is another
            strategy than the benchmark's default frames (or another value of the option the strategy
            becomes); a per-question strategy in a form the benchmark refuses.
    """
    defaults = spec.defaults
    config, notes = _per_question(config, spec)
    frames, options = config.media.frames, dict(config.data.options)
    own_frames = frames is not None and frames != defaults.frames
    for name, value in defaults.options.items():
        if name in options:
            continue
        if own_frames and name in defaults.frame_options:  # the user samples the frames: no default
            notes.append(
                f"note: {spec.name}: --frames {frames} samples the media itself; no {name} applied "
                f"(the paper's is {name}={value})"
            )
            continue
        options[name] = value
        notes.append(
            f"note: {spec.name}: no {name} given; using the paper's default {name}={value} "
            f"(choose another with -o {name}=...)"
        )
    chosen = [name for name in defaults.frame_options if name in options]
    if chosen and own_frames:
        raise RunSetupError(
            f"--frames {frames} conflicts with {chosen[0]}={options[chosen[0]]}: the {chosen[0]} "
            f"already chooses the frames sent; drop --frames (or use --frames {defaults.frames})"
        )
    config = config.updated("data", options=options)
    config = config.updated("media", frames=frames or defaults.frames or DEFAULT_FRAMES)
    budget = config.model.max_new_tokens or defaults.max_new_tokens
    return config.updated("model", max_new_tokens=budget), notes


def _per_question(config: RunConfig, spec: BenchmarkSpec) -> tuple[RunConfig, list[str]]:
    """Turn a frame strategy the benchmark samples per question into its frame option (with a note)."""
    defaults, frames = spec.defaults, config.media.frames
    if frames is None or defaults.question_frames is None or not defaults.frame_options:
        return config, []
    try:
        value = defaults.question_frames(frames)
    except ValueError as exc:
        raise RunSetupError(f"--frames {frames}: {exc}") from None
    if value is None:
        return config, []
    option, options = defaults.frame_options[0], dict(config.data.options)
    if options.get(option, value) != value:
        raise RunSetupError(f"--frames {frames} conflicts with {option}={options[option]}: give one of them")
    note = (f"note: {spec.name}: --frames {frames} takes its frames per question ({option}={value}); "
            f"media sampled with --frames {defaults.frames}")
    config = config.updated("data", options={**options, option: value})
    return config.updated("media", frames=defaults.frames), [note]
