"""The synthetic VSI-Bench benchmark: all ten question types asked on rendered scenes, written as a folder.

Rendered scenes (:func:`spatialbench.synth.pipeline.generate_synthetic`) come in; the eight meta-info tasks,
appearance order (from the rendered masks) and route planning (from the planner) go out, through the one
assembler and writers of :mod:`spatialbench.generate.vsi`. What ``bench_dir`` then holds::

    test.jsonl, test.parquet, manifest.json   the questions (official VSI-Bench schema)
    synthetic/<scene>.mp4                     the videos (VSI-Bench ``<dataset>/<scene>.mp4``)
    meta_info/synthetic_meta_info.json        official meta-info schema, seen instances only,
                                              + ``first_appearance``, ``first_pixel``
    scenes/<scene>/...                        frames.npz, freespace.npz, mesh.glb, scene.json

``bench_dir`` is what ``spatialbench run --benchmark vsibench --data DIR`` reads: the loader reads the
``.jsonl`` annotations only, so the optional routes file (every planned route, JSON lines) lies outside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spatialbench.generate.synthetic.tasks import route_task
from spatialbench.generate.vsi import (
    GeneratedBenchmark,
    GenerationSettings,
    Route,
    TaskResult,
    assemble,
    builtin_tasks,
    run_generators,
    write_benchmark,
    write_routes,
)
from spatialbench.generate.vsi.appearance_order import EXTRA_KEY as APPEARANCE_KEY
from spatialbench.generate.vsi.appearance_order import FIRST_PIXEL_KEY, AppearanceSettings, first_appearances
from spatialbench.generate.vsi.appearance_order import TASK as APPEARANCE_TASK
from spatialbench.generate.vsi.pipeline import subsample
from spatialbench.generate.vsi.route import TASK as ROUTE_TASK
from spatialbench.generate.vsi.seeding import derived_rng
from spatialbench.scene.metainfo import scene_from_meta
from spatialbench.synth.export import write_json
from spatialbench.synth.pipeline import RenderedScene

# Per-scene caps of the two rendered tasks when the settings have none (official 618 appearance-order
# and 194 route questions over 288 scenes: about 2 and 1 per scene).
RENDERED_TASK_CAPS = {APPEARANCE_TASK: 2, ROUTE_TASK: 1}


def synthetic_settings(seed: int) -> GenerationSettings:
    """Return the synthetic benchmark's generation settings: the defaults plus caps for the rendered tasks."""
    defaults = GenerationSettings(seed=seed)
    return GenerationSettings(seed=seed, caps={**RENDERED_TASK_CAPS, **defaults.caps})


def rendered_entries(rendered: Sequence[RenderedScene]) -> dict[str, dict[str, Any]]:
    """Meta-info entries of the rendered scenes with their appearance timelines added.

    Each entry lists only the instances the video shows (``RenderedScene.seen_meta_info``, see
    :mod:`spatialbench.synth.visibility`), so counting counts seen instances and no question names an
    unseen object. ``first_appearance``: {category: seconds its visible pixels first reach the
    appearance-order threshold}; ``first_pixel``: {category: seconds of its first non-empty mask}.
    """
    entries = {}
    for r in rendered:
        id_to_category = {obj.instance_id: obj.category for obj in r.scene.objects}
        categories, counts = r.visibility.category_pixels(id_to_category)
        times = r.visibility.timestamps.tolist()
        entries[r.scene.scene_id] = {
            **r.seen_meta_info,
            APPEARANCE_KEY: first_appearances(categories, counts, times, AppearanceSettings().min_pixels),
            FIRST_PIXEL_KEY: first_appearances(categories, counts, times, 1),
        }
    return entries


def plan_routes(
    rendered: Sequence[RenderedScene], entries: dict[str, dict[str, Any]], settings: GenerationSettings
) -> tuple[list[TaskResult], list[Route]]:
    """Route-planning results per scene (sub-sampled to the cap) and every planned route."""
    results: list[TaskResult] = []
    routes: list[Route] = []
    for r in rendered:
        scene_id = r.scene.scene_id
        rng = derived_rng(settings.seed, ROUTE_TASK, scene_id, "plan")
        result, records = route_task(r.scene, r.free_space, rng, visible=entries[scene_id][APPEARANCE_KEY])
        kept = subsample(
            result.candidates, settings.cap(ROUTE_TASK), derived_rng(settings.seed, ROUTE_TASK, scene_id)
        )
        result.removed["per_scene_cap"] += len(result.candidates) - len(kept)
        results.append(TaskResult(kept, result.removed))
        routes.extend(Route.model_validate(rec) for rec in records)
    return results, routes


def build_benchmark(
    rendered: Sequence[RenderedScene], entries: dict[str, dict[str, Any]], settings: GenerationSettings
) -> tuple[GeneratedBenchmark, list[Route]]:
    """All ten question types over the rendered scenes: eight meta-info tasks, appearance order, routes."""
    scenes = [scene_from_meta(scene_id, entry, "synthetic meta-info") for scene_id, entry in entries.items()]
    results = run_generators(scenes, [*builtin_tasks(), APPEARANCE_TASK], settings)
    results[ROUTE_TASK], routes = plan_routes(rendered, entries, settings)
    return assemble(results, settings), routes


def check_routes_file(routes_file: Path | None, bench_dir: Path) -> None:
    """Raise ValueError when ``routes_file`` lies inside ``bench_dir`` (the loader reads every ``.jsonl``)."""
    if routes_file is not None and routes_file.resolve().is_relative_to(bench_dir.resolve()):
        raise ValueError(f"routes file {routes_file} must lie outside the benchmark folder {bench_dir}")


def write_synthetic_benchmark(
    rendered: Sequence[RenderedScene], bench_dir: Path, seed: int, routes_file: Path | None = None
) -> GeneratedBenchmark:
    """Ask all ten question types on rendered scenes and write them as a VSI-Bench folder.

    Writes ``bench_dir``'s ``test.jsonl``, ``test.parquet`` and ``manifest.json``, rewrites its
    ``meta_info/synthetic_meta_info.json`` with each scene's ``first_appearance``, and writes every planned
    route to ``routes_file`` when given (it must lie outside ``bench_dir``).

    Raises:
        ValueError: ``routes_file`` lies inside ``bench_dir``.
    """
    check_routes_file(routes_file, bench_dir)
    entries = rendered_entries(rendered)
    (bench_dir / "meta_info").mkdir(parents=True, exist_ok=True)
    write_json(bench_dir / "meta_info" / "synthetic_meta_info.json", entries)
    bench, routes = build_benchmark(rendered, entries, synthetic_settings(seed))
    bench.manifest["unseen_instances_dropped"] = {r.scene.scene_id: r.unseen for r in rendered}
    write_benchmark(bench.items, bench.manifest, bench_dir)
    if routes_file is not None:
        write_routes(routes, routes_file)
    return bench
