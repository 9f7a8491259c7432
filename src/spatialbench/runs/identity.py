"""One run per output folder: a store holds the answers of one model on one benchmark.

Two models (or benchmarks) in one ``run.sqlite`` would mix their answers in one table of scores; a run on
a folder that holds another model's or benchmark's run is refused before anything is sent. What may
change between invocations on one folder: settings that are part of the request keys (a new prompt or
frame strategy is a new row), scoring modes, limits, concurrency. The served model name is compared
(:func:`~spatialbench.runs.keys.model_identity`), so an endpoint on another port is the same model.
Back-end options (``model.options``) are compared too, except those that do not change an answer
(:data:`ANSWER_NEUTRAL_OPTIONS`: where the model runs, whether traces are stored).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.keys import model_identity


class OtherRunError(RunSetupError):
    """The output folder holds a run of another model or benchmark."""


#: back-end options a resumed run may change: its answers stay the same
ANSWER_NEUTRAL_OPTIONS = frozenset({"trace", "trace_dir", "trace_top_k", "trace_layers", "device",
                                    "local_files_only"})
#: configuration fields two runs of the same settings may differ in (where a run ran, not what it asked)
TRANSPORT = (("model", "concurrency"), ("model", "timeout_s"), ("media", "frame_cache_mb"))


def comparable(config: dict[str, Any]) -> dict[str, Any]:
    """Return a recorded configuration without ``out`` and :data:`TRANSPORT`, the model by its served name."""
    data = dict(config["data"])
    data["path"] = str(Path(data["path"]).resolve())  # 'x/b' typed in /w and '/w/x/b' are one folder
    view = {**config, "data": data, "out": None}
    for section, key in TRANSPORT:
        view[section] = {k: v for k, v in view.get(section, {}).items() if k != key}
    view["model"] = {**view["model"], "name": model_identity(str(view["model"]["name"]))}
    return view


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Return ``field: old vs new`` for each leaf where nested ``a`` and ``b`` differ, in key order."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(set(a) | set(b))
        return [d for k in keys for d in differences(a.get(k), b.get(k), f"{path}.{k}" if path else k)]
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]


def _options(config: dict[str, Any]) -> dict[str, Any]:
    options = (config.get("model") or {}).get("options") or {}
    return {key: value for key, value in options.items() if key not in ANSWER_NEUTRAL_OPTIONS}


def _identity(config: dict[str, Any]) -> tuple[str, str]:
    data, model = config.get("data") or {}, config.get("model") or {}
    return str(data.get("benchmark")), model_identity(str(model.get("name")))


def check_same_run(stored: dict[str, Any], config: dict[str, Any], out: Path) -> None:
    """Refuse ``config`` when the folder's first recorded run (``stored``) is of another model/benchmark.

    Both are run configurations as recorded (``RunConfig.model_dump(mode="json")``).

    Raises:
        OtherRunError: benchmark, model or answer-changing back-end options differ; the message names the
            folder and both runs (or each option changed, old and new value).
    """
    (old_benchmark, old_model), (benchmark, model) = _identity(stored), _identity(config)
    if (old_benchmark, old_model) != (benchmark, model):
        raise OtherRunError(
            f"{out} holds a run of {old_model} on {old_benchmark}; this run is {model} on {benchmark}. "
            "One folder holds one model on one benchmark: choose another --out"
        )
    old_options, options = _options(stored), _options(config)
    if old_options != options:
        keys = sorted(old_options.keys() | options.keys())
        shown = "; ".join(f"{k}: {old_options.get(k, '(not set)')} -> {options.get(k, '(not set)')}"
                          for k in keys if old_options.get(k) != options.get(k))
        raise OtherRunError(
            f"{out}: model options differ from the run stored there ({shown}); they change the answers, "
            "so give the stored options again or choose another --out"
        )
