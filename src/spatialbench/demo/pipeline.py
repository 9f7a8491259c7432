"""``spatialbench demo``: the synthetic benchmark, chance baselines, a table, contact sheets and a summary.

Steps: procedural scenes rendered to walkthrough videos (:mod:`spatialbench.synth.pipeline`) and all ten
VSI-Bench question types asked on them (:mod:`spatialbench.generate.synthetic`), then what only the demo
does: the chance baselines scored, the table, contact sheets and the summary written.

Output folder ``out``::

    benchmark/                    the synthetic VSI-Bench folder (layout: generate.synthetic.benchmark)
    routes.jsonl                  planned routes (route-file schema of generate.vsi)
    contact_sheets/<scene>.jpg    12 frames sampled uniformly from each video
    chance_baselines.md           the table: Chance (random) and Chance (frequency)
    summary.json                  timings, question counts, filter removals

    demo_files.json               the contact sheets this demo wrote (what a re-run may remove)

A re-run into the same folder replaces these files and removes the videos, scene folders and contact
sheets an earlier run with more scenes left (only inside ``benchmark/synthetic``, ``benchmark/scenes`` and
``contact_sheets``); scenes already rendered with the same seed and settings are reused. Only contact
sheets listed in ``demo_files.json`` are ever removed: a user's own file in ``contact_sheets/`` stays,
whatever its name. Text outputs and sheets are written to a temporary and renamed (never a cut-off file).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spatialbench.benchmarks import get_benchmark
from spatialbench.demo.contact_sheet import contact_sheet
from spatialbench.generate.synthetic import write_synthetic_benchmark
from spatialbench.generate.vsi import GeneratedBenchmark
from spatialbench.records.files import atomic_write_text
from spatialbench.scoring.baselines import chance_frequency, chance_random
from spatialbench.scoring.output import markdown_rows
from spatialbench.synth.pipeline import RenderConfig, RenderedScene, generate_synthetic

MANIFEST = "demo_files.json"
"""The files the demo wrote and may remove on a re-run (its contact sheets)."""
# Demo videos are shorter than the renderer's default so three scenes render well within five minutes.
DEMO_SECONDS = 20.0


@dataclass
class DemoResult:
    """What the demo wrote and measured (also saved as ``summary.json``)."""

    out: Path
    table: str
    questions: dict[str, int]
    removed: dict[str, dict[str, int]]
    timings_s: dict[str, float] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


class Laps:
    """Wall-clock time of consecutive steps, seconds (two decimals), each logged when it ends."""

    def __init__(self, log: Callable[[str], None]) -> None:
        self.log = log
        self.timings: dict[str, float] = {}
        self._clock = time.perf_counter()

    def lap(self, name: str) -> None:
        """Record the time since the previous lap (or the start) as step ``name`` and log it."""
        now = time.perf_counter()
        self.timings[name] = round(now - self._clock, 2)
        self._clock = now
        self.log(f"[demo] {name}: {self.timings[name]:.1f} s")

    def total(self) -> dict[str, float]:
        """Every step's time plus ``"total"``, their sum."""
        return {**self.timings, "total": round(sum(self.timings.values()), 2)}


def chance_table(benchmark: Path) -> str:
    """Markdown table of both chance baselines over the benchmark as the VSI-Bench loader reads it.

    Raises:
        ValueError: the loader reported rows it could not read (the folder is not valid VSI-Bench).
    """
    spec = get_benchmark("vsibench")
    loaded = spec.load_items(benchmark)
    if loaded.errors:
        raise ValueError(f"{benchmark}: {len(loaded.errors)} unreadable rows, first: {loaded.errors[0]}")
    items = list(loaded)
    rows = [
        ("Chance (random)", chance_random(items, spec.scoring).table),
        ("Chance (frequency)", chance_frequency(items, spec.scoring).table),
    ]
    return "\n".join(markdown_rows(rows)) + "\n"


def _recorded_sheets(manifest: Path) -> set[str]:
    """Sheet names an earlier demo recorded in ``manifest`` (none when absent or unreadable)."""
    try:
        names = json.loads(manifest.read_text(encoding="utf-8")).get("contact_sheets", [])
    except (OSError, ValueError, AttributeError):
        return set()
    return {n for n in names if isinstance(n, str) and n == Path(n).name}


def write_contact_sheets(rendered: Sequence[RenderedScene], folder: Path, manifest: Path) -> None:
    """One contact sheet per rendered video in ``folder``; sheets an earlier demo wrote are removed.

    ``manifest`` (``demo_files.json``) lists the sheets the demo wrote; it is updated before any sheet is
    written (so an interrupted run's sheets are known) and after the earlier run's others are removed.
    Files the manifest does not list are never touched.
    """
    sheets = {f"{r.scene.scene_id}.jpg": r.video for r in rendered}
    earlier = _recorded_sheets(manifest)
    manifest.parent.mkdir(parents=True, exist_ok=True)
    recorded = {"contact_sheets": sorted(earlier | set(sheets))}
    atomic_write_text(manifest, json.dumps(recorded, indent=1) + "\n")
    for name, video in sheets.items():
        contact_sheet(video, folder / name)
    for name in earlier - set(sheets):  # an earlier, larger run's
        (folder / name).unlink(missing_ok=True)
    atomic_write_text(manifest, json.dumps({"contact_sheets": sorted(sheets)}, indent=1) + "\n")


def demo_result(
    out: Path, table: str, bench: GeneratedBenchmark, rendered: Sequence[RenderedScene], laps: Laps
) -> DemoResult:
    """Collect the demo's counts and timings (what ``summary.json`` holds) from what it wrote."""
    tasks = bench.manifest["tasks"]
    meta = json.loads((out / "benchmark" / "meta_info" / "synthetic_meta_info.json").read_text())
    present = {r.scene.scene_id: len({o.category for o in r.scene.objects}) for r in rendered}
    return DemoResult(
        out=out,
        table=table,
        questions={task: entry["count"] for task, entry in tasks.items()},
        removed={task: entry["removed"] for task, entry in tasks.items()},
        timings_s=laps.total(),
        extra={
            "scenes": {r.scene.scene_id: r.scene.room_type for r in rendered},
            "routes_planned": sum(1 for line in (out / "routes.jsonl").read_text().splitlines() if line),
            "unseen_instances_dropped": bench.manifest["unseen_instances_dropped"],
            # [categories reaching the appearance-order threshold, categories seen at all, categories placed]
            "categories_seen_of_present": {
                scene_id: [len(entry["first_appearance"]), len(entry["object_counts"]), present[scene_id]]
                for scene_id, entry in meta.items()
            },
        },
    )


def run_demo(
    out: Path,
    scenes: int = 3,
    seed: int = 0,
    seconds: float = DEMO_SECONDS,
    log: Callable[[str], None] = print,
) -> DemoResult:
    """Generate, render, ask, baseline and tabulate (module docstring).

    The same arguments give the same benchmark files; only ``summary.json``'s timings differ.

    Raises:
        RendererUnavailableError: no headless OpenGL context.
        ValueError: the written benchmark does not load as VSI-Bench.
    """
    laps = Laps(log)
    bench_dir = out / "benchmark"
    rendered = generate_synthetic(
        bench_dir,
        scenes,
        seed,
        RenderConfig(max_seconds=seconds),
        progress=lambda d, n, s: log(f"[demo] rendered {s} ({d}/{n})"),
    )
    laps.lap("generate and render scenes")
    bench = write_synthetic_benchmark(rendered, bench_dir, seed, out / "routes.jsonl")
    laps.lap("generate questions")
    table = chance_table(bench_dir)
    atomic_write_text(out / "chance_baselines.md", table)
    laps.lap("chance baselines")
    write_contact_sheets(rendered, out / "contact_sheets", out / MANIFEST)
    laps.lap("contact sheets")
    result = demo_result(out, table, bench, rendered, laps)
    summary = {k: v for k, v in result.__dict__.items() if k not in ("out", "table")}
    atomic_write_text(out / "summary.json", json.dumps(summary, indent=1, sort_keys=True) + "\n")
    return result
