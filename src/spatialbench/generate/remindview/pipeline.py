"""``generate remindview``: scenes → frame sets → 22 templates → a ReMindView-Bench folder.

Output (besides the frame-set folders of :mod:`~spatialbench.generate.remindview.render`)::

    OUT/object_centric_qa.csv, OUT/view_centric_qa.csv    QA tables (columns: dataset.COLUMNS)
    OUT/manifest.json                                      settings, counts, skipped frame sets, statistics
    OUT/statistics.md                                      App. A.3 Tables 4 and 5 of the generated set
    OUT/README.md, OUT/metadata.jsonl                      Hugging Face dataset: card, questions + frames

    OUT/remindview_files.json                              every file this module wrote (written.py)

A run first refuses a folder holding files this module did not record under the names it writes, or
other ``*.csv`` tables (:mod:`spatialbench.generate.remindview.written`), then removes
the recorded files of an earlier run (nothing else), so the loader never reads a stale table or frame
set. An interrupted run leaves no QA tables; every file it wrote is recorded, so the next run removes it.

Scenes: room types cycle through the five of App. B.1 (bedroom, living room, kitchen, dining room,
bathroom), density alternates sparse / dense, scene ``i`` has seed ``1000 * seed + i``, and every free
surface gets up to ``config.clutter`` small objects and each wall a picture (``synth.SceneConfig.clutter``).
Same config, same bytes.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.remindview.format import natural_key, write_table
from spatialbench.generate.card import CARD_NAME, METADATA_NAME, value_features, write_card, write_image_rows
from spatialbench.generate.remindview.choices import PatternBalancer
from spatialbench.generate.remindview.dataset import COLUMNS, Asked, ask, per_template, rows
from spatialbench.generate.remindview.render import SceneRenderer, rig_folder, write_json
from spatialbench.generate.remindview.settings import ROOM_TYPES, RemindViewConfig
from spatialbench.generate.remindview.stats import markdown, statistics
from spatialbench.generate.remindview.written import REMINDVIEW_FILES
from spatialbench.generate.written import Recorder
from spatialbench.synth.generator import Density, SceneConfig, generate_scene
from spatialbench.synth.renderer import Renderer
from spatialbench.synth.rigs import Rig
from spatialbench.synth.scene import SynthScene

Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Generated:
    """What one run wrote: the QA rows, the manifest and the timings (seconds)."""

    rows: list[dict[str, Any]]
    manifest: dict[str, Any]
    seconds: dict[str, float]


def scene_of(config: RemindViewConfig, index: int) -> SynthScene:
    """Scene ``index`` of a run (module docstring)."""
    room = ROOM_TYPES[index % len(ROOM_TYPES)]
    density = Density.SPARSE if index % 2 == 0 else Density.DENSE
    seed = 1000 * config.seed + index
    return generate_scene(SceneConfig(room_type=room, density=density, clutter=config.clutter), seed)


def generate_remindview(out: Path, config: RemindViewConfig, progress: Progress | None = None) -> Generated:
    """Render ``config.scenes`` scenes and write the benchmark folder ``out`` (module docstring).

    Raises:
        spatialbench.synth.RendererUnavailableError: no headless OpenGL context.
        spatialbench.generate.written.ForeignFilesError: ``out`` holds files this module did
            not write under its names, or other ``*.csv`` files; nothing is touched then.
    """
    recorder = _fresh(out)
    started = time.perf_counter()
    found = _Found()
    patterns = PatternBalancer()
    with Renderer(config.rig.width, config.rig.height) as renderer:
        for index in range(config.scenes):
            scene = scene_of(config, index)
            found.scene(SceneRenderer(scene, config, recorder, renderer), config, patterns)
            if progress is not None:
                progress(index + 1, config.scenes, scene.scene_id)
    rendered = time.perf_counter() - started
    kept = per_template(found.asked, config.per_template, config.seed)
    table = rows(kept, config.seed)
    sets = _drop_unasked(out, found.sets, {r["folder_path"] for r in table})
    recorder.add(*(qa_table_name(rig) for rig in config.rigs), "manifest.json", "statistics.md", CARD_NAME,
                 METADATA_NAME)
    _write_tables(out, config, table)
    manifest = _write_summary(out, config, table, sets, found)
    _write_dataset(out, config, table)
    seconds = {"render_and_ask": round(rendered, 3), "total": round(time.perf_counter() - started, 3)}
    return Generated(table, manifest, seconds)


@dataclass
class _Found:
    """What the scenes gave: questions, the frame sets written, and counts of those not written.

    ``skipped``: per rig, frame sets without valid cameras; ``unasked``: frame sets no template could ask
    on (neither rendered nor written).
    """

    asked: list[Asked] = field(default_factory=list)
    sets: list[dict[str, Any]] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    unasked: int = 0

    def scene(self, renderer: SceneRenderer, config: RemindViewConfig, patterns: PatternBalancer) -> None:
        """Ask on every frame set of one scene; render and write those with a question."""
        for frames in renderer.frame_sets():
            questions = ask(frames, config.questions, config.seed, patterns)
            if not questions:
                self.unasked += 1
                continue
            renderer.write(frames)
            self.asked += questions
            self.sets.append(
                {
                    "folder": frames.folder,
                    "scene": renderer.scene.scene_id,
                    "density": renderer.scene.density,
                    "target": frames.poses.target,
                    "objects": len(frames.objects),
                    "frame_objects": [len(frames.visible(f)) for f in range(frames.frame_count)],
                }
            )
        self.skipped.update(renderer.skipped)


def _drop_unasked(out: Path, sets: list[dict[str, Any]], used: set[str]) -> list[dict[str, Any]]:
    """Delete the frame sets ``--per-template`` left without a question; return those kept."""
    for frame_set in sets:
        if frame_set["folder"] not in used:
            folder = out / frame_set["folder"]
            for path in sorted(folder.iterdir()):
                path.unlink()
            folder.rmdir()
    return [s for s in sets if s["folder"] in used]


def _write_summary(
    out: Path,
    config: RemindViewConfig,
    table: list[dict[str, Any]],
    sets: list[dict[str, Any]],
    found: _Found,
) -> dict[str, Any]:
    """Write ``manifest.json`` and ``statistics.md`` (of the frame sets written); return the manifest."""
    stats = statistics(table, sets)
    manifest = {
        "settings": config.summary(),
        "frame_sets": len(sets),
        "frame_sets_skipped": dict(sorted(found.skipped.items())),
        "frame_sets_without_question": found.unasked,
        "questions": len(table),
        "questions_per_template": _per_template_counts(table),
        "statistics": stats,
    }
    write_json(out / "manifest.json", manifest)
    (out / "statistics.md").write_text(markdown(stats), encoding="utf-8")
    return manifest


def _fresh(out: Path) -> Recorder:
    """Check ``out``, remove what an earlier run recorded and return the recorder of this run."""
    out.mkdir(parents=True, exist_ok=True)
    REMINDVIEW_FILES.remove_recorded(out, REMINDVIEW_FILES.check_folder(out))
    return Recorder(out, REMINDVIEW_FILES)


def qa_table_name(rig: Rig) -> str:
    """``object_centric_qa.csv`` / ``view_centric_qa.csv``."""
    return rig.value.replace("-", "_") + "_qa.csv"


def _write_tables(out: Path, config: RemindViewConfig, table: list[dict[str, Any]]) -> None:
    """One QA table per rig, in ReMindView-Bench's own CSV layout (``benchmarks.remindview.format``)."""
    for rig in config.rigs:
        prefix = rig_folder(rig) + "/"
        rows_of_rig = [r for r in table if r["folder_path"].startswith(prefix)]
        write_table(rows_of_rig, out / qa_table_name(rig), COLUMNS)


HOW = ("Generated by `spatialbench generate remindview` (ReMindView-Bench, Sec. 3): procedural indoor rooms "
       "rendered from controlled multi-view cameras, questions from the paper's 22 query templates over "
       "view-view, view-object and object-object relations. Each row is one question; `images` are the "
       "frames of its frame set in order (`frame0`, `frame1`... as the question names them).")


def _write_dataset(out: Path, config: RemindViewConfig, table: list[dict[str, Any]]) -> None:
    """Write the questions with their frames' paths (``metadata.jsonl``) and the dataset card.

    The card's ``test`` split is the metadata and the frames of the rigs with a question (``generate.card``;
    a glob matching no file would fail ``load_dataset``).
    """
    frames = [sorted((p for p in (out / r["folder_path"]).iterdir() if p.suffix == ".png"),
                     key=lambda p: natural_key(p.name)) for r in table]
    # the QA tables join the choices as the release does; a dataset row holds them as a list
    questions = [{**r, "choices": str(r["choices"]).split(", ")} for r in table]
    write_image_rows(out, questions, COLUMNS, frames)
    folders = [rig_folder(rig) for rig in config.rigs
               if any(r["folder_path"].startswith(rig_folder(rig) + "/") for r in table)]
    features = [*value_features(questions, COLUMNS), {"name": "images", "list": "image"}]
    write_card(out, pretty_name="ReMindView-Bench (generated)", features=features,
               data_files=[METADATA_NAME, *(f"{folder}/**/frame*.png" for folder in folders)],
               how=HOW, seed=config.seed, rows=len(table))


def _per_template_counts(table: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in table:
        counts[str(row["template"])] = counts.get(str(row["template"]), 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: int(kv[0])))
