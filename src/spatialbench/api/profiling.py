"""``spatialbench.api.profile``: run a model under every setting of the diagnostic profile, then tabulate it.

The settings and the document are :mod:`spatialbench.analysis.profile`'s. Each setting is one run,
``OUT/<setting>``, of the given run configuration with that setting laid over it (a chance row is the
baseline run of the same items); re-running resumes every run, so a finished profile is re-read without a
request. TsT-RF runs on the items the runs selected (random folds, ``k`` and ``seed``), or is read from a
``stress_test.json`` already written (``stress_test=PATH``). Writes ``OUT/profile.json`` and
``OUT/profile.md``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, ClassVar

from spatialbench.analysis.profile import ANALYSIS, FILE, Setting, settings
from spatialbench.analysis.registry import AnalysisDocument, save_document
from spatialbench.analysis.shortcuts import stress_test as tst_rf
from spatialbench.analysis.shortcuts.document import fold_part
from spatialbench.api.running import run
from spatialbench.benchmarks import get_benchmark
from spatialbench.errors import SpatialBenchError
from spatialbench.media.visibility import visibility_files
from spatialbench.records.item import Item, MediaKind
from spatialbench.records.progress import Progress
from spatialbench.runs.config_file import ConfigSource, run_config
from spatialbench.runs.folder import open_run
from spatialbench.runs.plan import data_root
from spatialbench.runs.runner import shared_frame_caches
from spatialbench.scoring.render import to_markdown

MARKDOWN = "profile.md"


class ProfileStopped(SpatialBenchError):
    """A setting's run stopped early (the endpoint became unreachable); re-running resumes it."""

    exit_code: ClassVar[int] = 1


def _setting_config(base: dict[str, Any], setting: Setting, out: Path) -> dict[str, Any]:
    """Return one setting's run configuration; a chance row keeps only the data (its model: the baseline)."""
    config = copy.deepcopy(base)
    if "model" in setting.overrides and str(setting.overrides["model"]["name"]).startswith("chance-"):
        config = {"data": config["data"], "model": dict(setting.overrides["model"])}
    else:
        for section, fields in setting.overrides.items():
            config[section] = {**config.get(section, {}), **fields}
    config["out"] = str(out / setting.name)
    return config


def has_visibility(items: list[Item], root: Path) -> bool:
    """Whether the first video of ``items`` has per-frame visibility (synthetic scenes: coverage works)."""
    for item in items:
        for ref in item.media:
            if ref.kind is MediaKind.VIDEO:
                path = Path(ref.path) if Path(ref.path).is_absolute() else root / ref.path
                return visibility_files(path) is not None
    return False


def profile(
    config: ConfigSource,
    out: str | Path,
    *,
    frames: int = 8,
    coverage: bool | None = None,
    stress_test: str | Path | None = None,
    k: int = 5,
    seed: int = 42,
    progress: bool = False,
    tst_progress: Progress | None = None,
) -> AnalysisDocument:
    """Profile the model of ``config`` on its benchmark (module docstring); return the document written.

    ``config``: a run configuration (RunConfig, mapping or run file; its ``out`` is replaced). ``frames``:
    N of the N-frame and coverage rows. ``coverage``: add the coverage-oracle row (default: when the
    benchmark's videos have per-frame visibility). ``stress_test``: a ``stress_test.json`` to read TsT-RF
    from instead of training it. ``progress``: each run's progress bar; ``tst_progress``: TsT-RF's.

    Raises:
        RunConfigError / SpatialBenchError: a run that cannot start (nothing of it sent).
        ProfileStopped: a run stopped early (endpoint unreachable); the runs before it are kept.
        RunFolderError: a run that cannot be read back. OSError: ``stress_test`` or ``out`` unreadable.
    """
    target = Path(out)
    base = run_config(config, {"out": str(target)}).model_dump(mode="json")
    first = None
    rows = []
    with shared_frame_caches():  # a video the 1-frame and N-frame rows sample is decoded once per strategy
        for setting in _settings(base, frames, coverage):
            summary = run(_setting_config(base, setting, target), progress=progress)
            if summary.stopped:
                raise ProfileStopped(f"profile run {target / setting.name} stopped early: {summary.stopped}")
            rows.append({"setting": setting.name, "label": setting.label, "path": str(target / setting.name)})
            first = first or open_run(target / setting.name, scored=True)
    assert first is not None
    if stress_test is not None:
        part = json.loads(Path(stress_test).read_text(encoding="utf-8"))
    else:
        part = fold_part(tst_rf(first.items(), "random", k=k, seed=seed, progress=tst_progress))
    doc = ANALYSIS.run(first, runs=rows, frames=frames, model=base["model"]["name"], tst=part)
    save_document(target / FILE, doc)
    grids = ANALYSIS.tables(doc.model_dump(mode="json"))
    text = "\n\n".join("\n".join(to_markdown(g)) for g in grids) + "\n"
    (target / MARKDOWN).write_text(text, encoding="utf-8")
    return doc


def _settings(base: dict[str, Any], frames: int, coverage: bool | None) -> list[Setting]:
    """Return the profile's settings (``coverage`` None: a coverage row when the videos have visibility)."""
    if coverage is None:
        data = base["data"]
        items = get_benchmark(data["benchmark"]).load_items(data["path"], **(data.get("options") or {}))
        coverage = has_visibility(list(items), data_root(data["path"]))
    return settings(frames, coverage)
