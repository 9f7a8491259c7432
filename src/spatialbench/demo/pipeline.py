"""``spatialbench demo``: synthetic scenes to videos, questions, chance baselines, table and contact sheets.

Steps: procedural scenes rendered to walkthrough videos (:mod:`spatialbench.synth.pipeline`), all ten
VSI-Bench question types generated on them, the chance baselines scored, the table written.

Output folder ``out``::

    benchmark/test.jsonl, test.parquet, manifest.json   the questions (official VSI-Bench schema)
    benchmark/synthetic/<scene>.mp4                     the videos (VSI-Bench ``<dataset>/<scene>.mp4``)
    benchmark/meta_info/synthetic_meta_info.json        official meta-info schema, seen instances only,
                                                        + ``first_appearance``, ``first_pixel``
    benchmark/scenes/<scene>/...                        frames.npz, freespace.npz, mesh.glb, scene.json
    routes.jsonl                                        planned routes (route-file schema of generate.vsi)
    contact_sheets/<scene>.jpg                          12 frames sampled uniformly from each video
    chance_baselines.md                                 the table: Chance (random) and Chance (frequency)
    summary.json                                        timings, question counts, filter removals

A re-run into the same folder replaces these files and removes the videos, scene folders and contact
sheets an earlier run with more scenes left (only inside ``benchmark/synthetic``, ``benchmark/scenes`` and
``contact_sheets``); scenes already rendered with the same seed and settings are reused.

``benchmark/`` is what ``spatialbench run --benchmark vsibench --data out/benchmark`` reads: the loader reads
the ``.jsonl`` annotations only, so nothing else in that folder may end in ``.jsonl``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.registry import load_items
from spatialbench.demo.contact_sheet import contact_sheet
from spatialbench.demo.synthetic_tasks import route_task
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
from spatialbench.scoring.baselines import chance_frequency, chance_random
from spatialbench.scoring.output import markdown_rows
from spatialbench.synth.export import write_json
from spatialbench.synth.pipeline import RenderConfig, RenderedScene, generate_synthetic

# Demo videos are shorter than the renderer's default so three scenes render well within five minutes.
DEMO_SECONDS = 20.0
# Per-scene caps of the two rendered tasks when the settings have none (official 618 appearance-order
# and 194 route questions over 288 scenes: about 2 and 1 per scene).
RENDERED_TASK_CAPS = {APPEARANCE_TASK: 2, ROUTE_TASK: 1}


@dataclass
class DemoResult:
    """What the demo wrote and measured (also saved as ``summary.json``)."""

    out: Path
    table: str
    questions: dict[str, int]
    removed: dict[str, dict[str, int]]
    timings_s: dict[str, float] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


def demo_settings(seed: int) -> GenerationSettings:
    """Return the demo's generation settings: the defaults plus caps for the two rendered tasks."""
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
        result, records = route_task(
            r.scene, r.free_space, rng, visible=entries[scene_id]["first_appearance"]
        )
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
    bench, routes = build_benchmark(rendered, entries, demo_settings(seed))
    bench.manifest["unseen_instances_dropped"] = {r.scene.scene_id: r.unseen for r in rendered}
    write_benchmark(bench.items, bench.manifest, bench_dir)
    if routes_file is not None:
        write_routes(routes, routes_file)
    return bench


def chance_table(benchmark: Path) -> str:
    """Markdown table of both chance baselines over the benchmark as the VSI-Bench loader reads it.

    Raises:
        ValueError: the loader reported rows it could not read (the folder is not valid VSI-Bench).
    """
    loaded = load_items("vsibench", benchmark)
    if loaded.errors:
        raise ValueError(f"{benchmark}: {len(loaded.errors)} unreadable rows, first: {loaded.errors[0]}")
    items = list(loaded)
    rows = [
        ("Chance (random)", chance_random(items, benchmark="vsibench").table),
        ("Chance (frequency)", chance_frequency(items, benchmark="vsibench").table),
    ]
    return "\n".join(markdown_rows(rows)) + "\n"


def run_demo(
    out: Path,
    scenes: int = 3,
    seed: int = 0,
    seconds: float = DEMO_SECONDS,
    log: Callable[[str], None] = print,
) -> DemoResult:
    """Generate, render, ask, baseline and tabulate (module docstring).

    The same arguments give the same benchmark files; only ``summary.json``'s timings differ.
    """
    timings: dict[str, float] = {}
    clock = time.perf_counter()
    bench_dir = out / "benchmark"

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[name] = round(now - clock, 2)
        clock = now
        log(f"[demo] {name}: {timings[name]:.1f} s")

    rendered = generate_synthetic(
        bench_dir,
        scenes,
        seed,
        RenderConfig(max_seconds=seconds),
        progress=lambda d, n, s: log(f"[demo] rendered {s} ({d}/{n})"),
    )
    lap("generate and render scenes")
    bench = write_synthetic_benchmark(rendered, bench_dir, seed, out / "routes.jsonl")
    lap("generate questions")
    table = chance_table(bench_dir)
    (out / "chance_baselines.md").write_text(table)
    lap("chance baselines")
    sheets = {out / "contact_sheets" / f"{r.scene.scene_id}.jpg": r.video for r in rendered}
    for sheet, video in sheets.items():
        contact_sheet(video, sheet)
    for stale in set((out / "contact_sheets").glob("*.jpg")) - set(sheets):  # an earlier, larger run's
        stale.unlink()
    lap("contact sheets")
    result = DemoResult(
        out=out,
        table=table,
        questions={task: entry["count"] for task, entry in bench.manifest["tasks"].items()},
        removed={task: entry["removed"] for task, entry in bench.manifest["tasks"].items()},
        timings_s={**timings, "total": round(sum(timings.values()), 2)},
        extra={
            "scenes": {r.scene.scene_id: r.scene.room_type for r in rendered},
            "routes_planned": sum(1 for line in (out / "routes.jsonl").read_text().splitlines() if line),
            "unseen_instances_dropped": bench.manifest["unseen_instances_dropped"],
        },
    )
    meta = json.loads((bench_dir / "meta_info" / "synthetic_meta_info.json").read_text())
    present = {r.scene.scene_id: len({o.category for o in r.scene.objects}) for r in rendered}
    # [categories reaching the appearance-order threshold, categories seen at all, categories placed]
    result.extra["categories_seen_of_present"] = {
        scene_id: [len(entry["first_appearance"]), len(entry["object_counts"]), present[scene_id]]
        for scene_id, entry in meta.items()
    }
    summary = {k: v for k, v in result.__dict__.items() if k not in ("out", "table")}
    (out / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    return result
