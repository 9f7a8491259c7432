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

    demo_files.txt                the files this demo wrote here (what a re-run may replace or remove)

Before anything is written, a folder holding files the demo did not record under the names it writes
(a user's ``summary.json`` or ``routes.jsonl``, a sheet named like one of this run's) is refused, and so
is a ``benchmark/`` holding such files of its own (:mod:`spatialbench.generate.synthetic.folder`);
the mechanism is :mod:`spatialbench.generate.written`. A re-run into the same folder replaces these
files and removes the videos, scene folders and contact sheets an earlier run with more scenes left;
scenes already rendered with the same seed and settings are reused. Only recorded files are ever
replaced or removed: a user's own file in ``contact_sheets/`` stays, whatever its name. Text outputs
and sheets are written to a temporary and renamed (never a cut-off file).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spatialbench.benchmarks import get_benchmark
from spatialbench.demo.contact_sheet import contact_sheet
from spatialbench.generate.synthetic import write_synthetic_benchmark
from spatialbench.generate.synthetic.folder import SYNTHETIC_FILES, claim_folder
from spatialbench.generate.vsi import GeneratedBenchmark
from spatialbench.generate.written import OwnedFiles
from spatialbench.records.files import atomic_write_text
from spatialbench.scoring.baselines import chance_frequency, chance_random
from spatialbench.scoring.output import markdown_rows
from spatialbench.synth.pipeline import RenderConfig, RenderedScene, generate_synthetic, scene_ids
from spatialbench.synth.scene import SYNTHETIC_DATASET

SHEETS = "contact_sheets"
DEMO_FILES = OwnedFiles("demo", "demo_files.txt", ("routes.jsonl", "chance_baselines.md", "summary.json"))
"""What the demo writes at the top of its folder; its contact sheets are planned per scene."""
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


def claim_demo_folder(out: Path, scenes: int, seed: int) -> None:
    """Refuse ``out`` or its ``benchmark/`` holding files the demo did not write where it writes; record.

    Raises:
        ForeignFilesError: the message names the foreign files; nothing is written then.
    """
    sheets = [f"{SHEETS}/{scene_id}.jpg" for scene_id in scene_ids(scenes, seed)]
    own = DEMO_FILES.check_folder(out, sheets)
    claim_folder(out / "benchmark", scenes, seed)
    DEMO_FILES.record(out, own | set(DEMO_FILES.top_files) | set(sheets))


def write_contact_sheets(
    rendered: Sequence[RenderedScene], out: Path, early: Mapping[str, Future[Path]] | None = None
) -> None:
    """One contact sheet per rendered video in ``out/contact_sheets``; an earlier demo's others are removed.

    ``early``: sheets already being made (name under ``out`` → future), waited for instead of made again.
    Only sheets the demo's journal records (:data:`DEMO_FILES`, written before any sheet) are removed;
    files it does not list are never touched.
    """
    sheets = {f"{SHEETS}/{r.scene.scene_id}.jpg": r.video for r in rendered}
    (out / SHEETS).mkdir(parents=True, exist_ok=True)
    for name, video in sheets.items():
        if early is not None and name in early:
            early[name].result()
        else:
            contact_sheet(video, out / name)
    for name in DEMO_FILES.recorded(out) - set(sheets):  # an earlier, larger run's
        if name.startswith(f"{SHEETS}/"):
            (out / name).unlink(missing_ok=True)


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
        ForeignFilesError: ``out`` holds files the demo did not write where it writes (nothing written).
        ValueError: the written benchmark does not load as VSI-Bench.
    """
    laps = Laps(log)
    claim_demo_folder(out, scenes, seed)
    bench_dir = out / "benchmark"
    early: dict[str, Future[Path]] = {}
    with ThreadPoolExecutor(1, thread_name_prefix="contact-sheets") as sheets:

        def scene_done(done: int, total: int, scene_id: str) -> None:
            log(f"[demo] rendered {scene_id} ({done}/{total})")
            video, name = bench_dir / SYNTHETIC_DATASET / f"{scene_id}.mp4", f"{SHEETS}/{scene_id}.jpg"
            early[name] = sheets.submit(contact_sheet, video, out / name)  # while the next scene renders

        rendered = generate_synthetic(bench_dir, scenes, seed, RenderConfig(max_seconds=seconds), scene_done)
        laps.lap("generate and render scenes")
        bench = write_synthetic_benchmark(rendered, bench_dir, seed, out / "routes.jsonl")
        laps.lap("generate questions")
        table = chance_table(bench_dir)
        atomic_write_text(out / "chance_baselines.md", table)
        laps.lap("chance baselines")
        write_contact_sheets(rendered, out, early)
        laps.lap("contact sheets")
    result = demo_result(out, table, bench, rendered, laps)
    summary = {k: v for k, v in result.__dict__.items() if k not in ("out", "table")}
    atomic_write_text(out / "summary.json", json.dumps(summary, indent=1, sort_keys=True) + "\n")
    DEMO_FILES.existing(out)
    SYNTHETIC_FILES.existing(bench_dir)
    return result
