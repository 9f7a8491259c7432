"""``spatialbench.generate(benchmark, out, **settings)``: a benchmark folder, as ``spatialbench generate``.

One function per generator, each calling the library functions its command calls:

- ``vsibench``: VSI-Bench questions from scene meta-info (``meta_info=PATH``, ``tasks``, ``rules`` ``data``
  or ``paper``, and any :class:`~spatialbench.generate.vsi.GenerationSettings` field: ``seed``,
  ``distance_method``, ...); writes ``test.jsonl``, ``test.parquet``, ``manifest.json``.
- ``synthetic``: rendered rooms and their ten question types (``scenes``, ``seed``, ``routes``,
  ``executor``/``ray_address``/``workers`` and the :class:`~spatialbench.synth.RenderConfig` fields
  ``width``, ``height``, ``fps``, ``max_seconds``...).
- ``remindview``: multi-view frame sets and the 22 ReMindView-Bench templates (``preset`` and the preset's
  fields: ``scenes``, ``seed``, ``rigs``, ``levels``, ``width``, ``height``, ``per_template``...).

Each returns the benchmark's manifest (a dict: what was generated, counts per task). ``progress(done,
total, scene)`` is called per scene by the rendering generators.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spatialbench.registry import unknown_name

if TYPE_CHECKING:
    from spatialbench.analysis.shortcuts.regenerate import DebiasSettings
    from spatialbench.generate.vsi import GenerationSettings
    from spatialbench.scene.model import Scene

Progress = Callable[[int, int, str], None]
RULES = ("data", "paper")


def write_vsibench(
    out: Path, scenes: list[Scene], tasks: list[str], settings: GenerationSettings,
    debias: DebiasSettings | None = None, progress: Callable[[int, int], None] | None = None,
    log: Callable[[str], None] = lambda line: None,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Generate ``tasks`` on ``scenes`` into ``out``; with ``debias`` re-draw the flagged questions first.

    ``progress`` (tasks done, tasks) without ``debias``; ``log`` a line per re-draw round with it. Returns
    the manifest and the re-draw report written to ``debias.json`` (None without ``debias``).
    """
    from spatialbench.analysis.shortcuts.regenerate import regenerate_biased, write_regeneration
    from spatialbench.generate.vsi import generate_vsibench, write_benchmark

    if debias is None:
        bench = generate_vsibench(scenes, tasks, settings, progress)
        write_benchmark(bench.items, bench.manifest, out)
        return bench.manifest, None
    regen = regenerate_biased(scenes, tasks, settings, debias, log)
    write_regeneration(regen, out)
    return regen.bench.manifest, regen.report


def _vsibench(out: Path, meta_info: str | os.PathLike[str], tasks: list[str] | None = None,
              rules: str = "data", debias: bool | dict[str, Any] = False, **settings: Any) -> dict[str, Any]:
    from spatialbench.analysis.shortcuts.regenerate import DebiasSettings
    from spatialbench.generate.vsi import GenerationSettings, builtin_tasks
    from spatialbench.scene import load_meta_info

    if rules not in RULES:
        raise ValueError(f"rules {rules!r}; use one of: {', '.join(RULES)}")
    chosen = GenerationSettings.paper(**settings) if rules == "paper" else GenerationSettings(**settings)
    redraw = DebiasSettings(**debias) if isinstance(debias, dict) else DebiasSettings() if debias else None
    scenes = list(load_meta_info(Path(meta_info)).values())
    asked = list(dict.fromkeys(tasks or builtin_tasks()))
    return dict(write_vsibench(out, scenes, asked, chosen, redraw)[0])


def _synthetic(out: Path, scenes: int = 3, seed: int = 0, routes: str | os.PathLike[str] | None = None,
               executor: str = "local", ray_address: str | None = None, workers: int | None = None,
               progress: Progress | None = None, **render: Any) -> dict[str, Any]:
    from spatialbench.generate.executors import ExecutorSettings, generate_synthetic_on
    from spatialbench.generate.synthetic import check_routes_file, write_synthetic_benchmark
    from spatialbench.synth import RenderConfig

    routes_file = None if routes is None else Path(routes)
    check_routes_file(routes_file, out)
    settings = ExecutorSettings(executor, ray_address, workers)
    results = generate_synthetic_on(settings, out, scenes, seed, RenderConfig(**render), progress=progress)
    return dict(write_synthetic_benchmark(results, out, seed, routes_file).manifest)


def _remindview(out: Path, preset: str = "paper", progress: Progress | None = None,
                **settings: Any) -> dict[str, Any]:
    from spatialbench.generate.remindview import generate_remindview, preset_config

    return dict(generate_remindview(out, preset_config(preset, **settings), progress=progress).manifest)


GENERATORS: dict[str, Callable[..., dict[str, Any]]] = {
    "vsibench": _vsibench,
    "synthetic": _synthetic,
    "remindview": _remindview,
}


def generate(benchmark: str, out: str | os.PathLike[str], **settings: Any) -> dict[str, Any]:
    """Generate benchmark ``benchmark`` (``vsibench``, ``synthetic``, ``remindview``) into the folder ``out``.

    ``settings``: the generator's (module docstring); the same seed writes the same files. Returns the
    manifest.

    Raises:
        UnknownNameError: another generator name. TypeError / ValueError / pydantic.ValidationError: a
            setting the generator does not take or refuses. The generator's own errors (no renderer,
            unreadable meta-info, a folder of other files).
    """
    generator = GENERATORS.get(benchmark)
    if generator is None:
        raise unknown_name("generator", benchmark, GENERATORS)
    return generator(Path(out), **settings)
