"""Locality of a run's cognitive maps (VSI-Bench Sec. 6.1, Fig. 11, App. B.4, Table 4).

Reads the ``map`` turns a ``--strategy cognitive-map`` (or ``map-then-answer``) run stored, parses each
with the item's categories of interest (:mod:`spatialbench.prompting.cogmap_parse`, never raises),
draws the ground-truth map of the same categories from the scene's meta-info
(:func:`spatialbench.scene.cogmap.ground_truth_map`) and pools every category pair of every map into the
paper's eight distance bins (:mod:`spatialbench.scoring.cogmap_locality`). Nothing is sent to a model.

Categories (App. B.4), as the strategy chose them (``strategy.params.categories`` of the run):
``scene`` — every category of the scene, under the names questions use; ``question`` — those the
question names (a task without a rule: the scene's). Requested names absent from the scene's meta-info
are left out of the ground truth (and counted). The grid size is the run's ``grid_size`` parameter.

``RUN/analysis/cogmap_locality.json`` (``analysis`` ``cogmap-locality``, ``schema``
``spatialbench.cogmap-locality``, ``version`` 1): ``run``, ``grid`` (size and normalisation),
``categories``, ``bins`` (``low``, ``high``, ``correct``, ``total``, ``accuracy`` 0..1 or null),
``below`` / ``above`` / ``missing_pairs``, ``maps`` (``stored``, ``read``, ``no_point``,
``with_problems``, ``no_scene``, ``outside_grid`` maps and ``points_outside_grid``),
``unknown_categories`` (name -> count), ``reference`` (Table 4 curves) and ``items`` (per map: ``id``,
``scene``, ``categories``, ``missing``, ``unknown``, ``problems``, ``pairs``, ``correct``,
``outside_grid``) and ``examples`` (the first :data:`MAPS` maps in benchmark order: ``id``, ``scene``,
``predicted`` and ``truth`` points per category, drawn side by side in the report, Fig. 10). Scenes come
from the ``meta_info`` parameter, else the run's ``-S meta_info=`` strategy parameter, else
``<data>/meta_info``; the grid size and categories mode are the run's strategy parameters.

Predicted points outside the grid (a coordinate below ``origin`` or above ``origin + grid_size - 1``,
the cells App. B.4's prompt offers) are neither dropped nor clipped: they are paired as given and
counted per map (``outside_grid``), so a map drawn off the grid is visible in the output.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from pydantic import BaseModel, ConfigDict

from spatialbench import charts
from spatialbench.analysis.registry import Analysis, AnalysisDocument, DrawnFigure
from spatialbench.analysis.stored import turn_texts
from spatialbench.errors import SpatialBenchError
from spatialbench.prompting.cogmap import categories_of_interest
from spatialbench.prompting.cogmap_parse import parse_map
from spatialbench.records.item import Item
from spatialbench.runs.folder import RunFolder
from spatialbench.scene import load_meta_info
from spatialbench.scene.categories import scene_category
from spatialbench.scene.cogmap import GridSpec, ground_truth_map, scene_names
from spatialbench.scene.model import Scene
from spatialbench.scoring.cogmap_locality import Locality, PairDistance, locality, map_pairs
from spatialbench.scoring.render import Grid, Value, to_markdown

NAME = "cogmap-locality"
FILE = "cogmap_locality"
SCHEMA = "spatialbench.cogmap-locality"
VERSION = 1
MAP_TURN = "map"  # the map turn of prompting.strategies.cogmap
MAPS = 3  # maps kept as examples (drawn beside their ground truth, Fig. 10)
Points = dict[str, list[list[float]]]
REFERENCE = {  # Table 4 (App. B.5), accuracy per bin
    "Gemini-1.5 Pro": (0.64, 0.48, 0.35, 0.35, 0.28, 0.12, 0.06, 0.00),
    "LLaVA-Video-72B": (0.59, 0.45, 0.42, 0.30, 0.15, 0.23, 0.16, 0.00),
    "LLaVA-Video-7B": (0.50, 0.43, 0.34, 0.29, 0.19, 0.18, 0.14, 0.00),
}


class CogmapError(SpatialBenchError, ValueError):
    """A run whose maps cannot be studied: no map stored, no scene meta-info (the message says which)."""


@dataclass(frozen=True)
class MapResult:
    """One stored map, read and paired against its ground truth."""

    id: str
    scene: str
    categories: tuple[str, ...]
    missing: tuple[str, ...]
    unknown: tuple[str, ...]
    problems: tuple[str, ...]
    not_in_scene: tuple[str, ...]
    pairs: tuple[PairDistance, ...]
    outside_grid: int = 0
    predicted: Points = field(default_factory=dict)
    truth: Points = field(default_factory=dict)


def item_categories(item: Item, scene: Scene, mode: str) -> tuple[str, ...]:
    """Return the categories of interest of ``item`` in ``mode`` ``scene`` or ``question`` (module docstring).

    Raises:
        ValueError: unknown mode; CategoryRuleError: a question off its task's official wording.
    """
    if mode not in ("scene", "question"):
        raise ValueError(f"categories mode must be 'scene' or 'question', got {mode!r}")
    names = categories_of_interest(item.task, item.question, item.options) if mode == "question" else None
    return names or scene_names(scene)


def outside_grid(points: Mapping[str, Sequence[tuple[float, float]]], spec: GridSpec) -> int:
    """Count the points with a coordinate outside the cells ``origin .. origin + grid_size - 1``."""
    low, high = spec.origin, spec.origin + spec.grid_size - 1
    return sum(1 for pts in points.values() for p in pts if not all(low <= v <= high for v in p))


def read_map(item: Item, text: str, scene: Scene, spec: GridSpec, mode: str) -> MapResult:
    """Parse one map and pair it with the ground truth of the same categories."""
    names = item_categories(item, scene, mode)
    parsed = parse_map(text, names)
    present = [n for n in names if scene_category(scene, n) is not None or n in scene.objects]
    truth = ground_truth_map(scene, spec, present)
    pairs = tuple(map_pairs(parsed.points, truth))
    absent = tuple(n for n in names if n not in present)
    predicted = {n: [list(map(float, p)) for p in points] for n, points in parsed.points.items()}
    return MapResult(
        item.id, scene.scene_id, names, parsed.missing, parsed.unknown, parsed.problems, absent, pairs,
        outside_grid(parsed.points, spec), predicted,
        {n: np.asarray(xy, dtype=float).reshape(-1, 2).tolist() for n, xy in truth.items()},
    )


def _bins(result: Locality) -> list[dict[str, Any]]:
    edges = result.edges
    return [
        {
            "low": edges[i],
            "high": edges[i + 1],
            "correct": result.correct[i],
            "total": result.total[i],
            "accuracy": result.accuracy[i],
        }
        for i in range(len(edges) - 1)
    ]


def _item_json(result: MapResult) -> dict[str, Any]:
    return {
        "id": result.id,
        "scene": result.scene,
        "categories": list(result.categories),
        "missing": list(result.missing),
        "unknown": list(result.unknown),
        "problems": list(result.problems),
        "not_in_scene": list(result.not_in_scene),
        "pairs": len(result.pairs),
        "correct": sum(p.correct() for p in result.pairs),
        "outside_grid": result.outside_grid,
    }


def _stored_maps(run: RunFolder) -> dict[str, str]:
    """Item id -> the map turn's reply; ValueError when the run stored none (not a cognitive-map run)."""
    maps = turn_texts(run, MAP_TURN)
    if not maps:
        raise CogmapError(
            f"{run.path}: no cognitive maps stored (run it with --strategy cognitive-map or map-then-answer)"
        )
    return maps


def _map_counts(results: Sequence[MapResult], stored: int, no_scene: int) -> dict[str, int]:
    """Return the ``maps`` counts of the document: stored, read, without a point or scene, off the grid."""
    read = sum(1 for r in results if len(r.missing) < len(r.categories))
    return {
        "stored": stored,
        "read": read,
        "no_point": len(results) - read,
        "with_problems": sum(1 for r in results if r.problems),
        "no_scene": no_scene,
        "outside_grid": sum(1 for r in results if r.outside_grid),
        "points_outside_grid": sum(r.outside_grid for r in results),
    }


def locality_study(
    run: RunFolder, items: Sequence[Item], scenes: Mapping[str, Scene], spec: GridSpec, mode: str
) -> dict[str, Any]:
    """Build the ``cogmap_locality.json`` document of a run (module docstring).

    Args:
        run: the run folder.
        items: its benchmark items.
        scenes: scene id -> scene (meta-info).
        spec: grid size and normalisation of the ground truth.
        mode: categories of interest, ``scene`` or ``question``.

    Raises:
        ValueError: unknown mode, or the run stored no map (not a cognitive-map run).
    """
    maps = _stored_maps(run)
    by_id = {item.id: item for item in items}
    results, no_scene = [], 0
    for item_id, text in maps.items():
        item = by_id.get(item_id)
        scene = scenes.get(item.scene_id or "") if item is not None else None
        if item is None or scene is None:
            no_scene += 1
            continue
        results.append(read_map(item, text, scene, spec, mode))
    pooled = locality(p for r in results for p in r.pairs)
    unknown = Counter(u for r in results for u in r.unknown)
    order = {item.id: k for k, item in enumerate(items)}
    examples = sorted(results, key=lambda r: order[r.id])[:MAPS]
    return {
        "analysis": NAME,
        "version": VERSION,
        "schema": SCHEMA,
        "run": str(run.path.resolve()),
        "grid": asdict(spec),
        "categories": mode,
        "bins": _bins(pooled),
        "below": pooled.below,
        "above": pooled.above,
        "missing_pairs": pooled.missing,
        "maps": _map_counts(results, len(maps), no_scene),
        "unknown_categories": dict(unknown.most_common()),
        "reference": {name: list(curve) for name, curve in REFERENCE.items()},
        "items": [_item_json(r) for r in results],
        "examples": [{"id": r.id, "scene": r.scene, "predicted": r.predicted, "truth": r.truth}
                     for r in examples],
    }


def find_meta_info(given: Path | None, run: RunFolder) -> Path:
    """Return the scene meta-info: ``given``, else the run's ``-S meta_info=``, else ``<data>/meta_info``.

    Raises:
        CogmapError: none of them exists (the message lists what was tried).
    """
    recorded = str((run.raw_config.get("strategy") or {}).get("params", {}).get("meta_info") or "")
    beside = run.data_path / "meta_info"
    for candidate in (given, Path(recorded) if recorded else None, beside):
        if candidate is not None and candidate.exists():
            return candidate
    tried = f"tried --meta-info, -S meta_info=, {beside}"
    raise CogmapError(f"no meta-info found ({tried}): give --meta-info PATH")


class LocalityParams(BaseModel):
    """Parameters of ``cogmap-locality``: the scenes' meta-info and the ground truth's normalisation.

    (:class:`~spatialbench.scene.cogmap.GridSpec`: ``extent`` objects / centers / room, ``aspect``
    isotropic / per-axis, first cell ``origin`` 0 or 1).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    meta_info: Path | None = None
    extent: str = "objects"
    aspect: str = "isotropic"
    origin: int = 0


def _tenth(value: float) -> str:
    """One decimal, halves rounded up as Table 4 prints the edges (3.25 -> 3.3)."""
    return f"{math.floor(value * 10 + 0.5) / 10:.1f}"


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def locality_text(doc: dict[str, Any], name: str) -> str:
    """Return the document as ``spatialbench cogmap`` prints it: Table 4's layout, then the counts.

    Table 4's layout: bins as the paper prints their edges, the run's row ``name``, pairs, the paper's rows.
    """
    bins = doc["bins"]
    labels = [f"{'[' if i == 0 else '('}{_tenth(b['low'])}, {_tenth(b['high'])}]" for i, b in enumerate(bins)]
    rows: list[tuple[str, tuple[Value, ...]]] = [
        (name, tuple(_share(b["accuracy"]) for b in bins)), ("pairs", tuple(str(b["total"]) for b in bins)),
        *((f"{model} (Table 4)", tuple(map(_share, curve))) for model, curve in doc["reference"].items())]
    maps, grid = doc["maps"], doc["grid"]["grid_size"]
    counts = (
        f"maps: {maps['stored']} stored, {maps['read']} read, {maps['no_point']} without a point, "
        f"{maps['with_problems']} with problems, {maps['no_scene']} without scene; "
        f"pairs outside the bins: {doc['below']} below, {doc['above']} above; "
        f"pairs with a category missing: {doc['missing_pairs']}"
    )
    off = maps.get("points_outside_grid", 0)
    outside = [f"{off} predicted point(s) outside the {grid} x {grid} grid in {maps['outside_grid']} map(s): "
               "kept as given (per item: outside_grid)"] if off else []
    title = f"**cognitive-map locality** · grid {grid} · categories: {doc['categories']}"
    return "\n".join([title, "", *to_markdown(Grid(tuple(labels), tuple(rows))), "", counts, *outside]) + "\n"


def _arrays(points: Mapping[str, Any]) -> dict[str, Any]:
    """Category -> its points as an ``(n, 2)`` float array (grid cells)."""
    return {name: np.asarray(xy, dtype=float).reshape(-1, 2) for name, xy in points.items()}


class LocalityAnalysis(Analysis):
    """``cogmap-locality``: locality of a run's cognitive maps (module docstring)."""

    name: ClassVar[str] = NAME
    description: ClassVar[str] = "locality of a run's cognitive maps per distance bin (VSI-Bench Fig. 11)"
    title: ClassVar[str] = "Cognitive-map locality"
    version: ClassVar[int] = VERSION
    file: ClassVar[str] = FILE
    Params: ClassVar[type[BaseModel]] = LocalityParams

    def compute(self, run: RunFolder, params: BaseModel) -> AnalysisDocument:
        """Study the maps ``run`` stored against its scenes' ground truth (:func:`locality_study`).

        Raises:
            CogmapError: no meta-info, no stored map. MetaInfoError / ValueError / OSError: unreadable
                meta-info or benchmark data, a bad grid option.
        """
        assert isinstance(params, LocalityParams)
        strategy = (run.raw_config.get("strategy") or {}).get("params", {})
        spec = GridSpec(int(strategy.get("grid_size", 10)), params.extent, params.aspect,  # type: ignore[arg-type]
                        params.origin)
        scenes = load_meta_info(find_meta_info(params.meta_info, run))
        study = locality_study(run, run.load(), scenes, spec, str(strategy.get("categories", "scene")))
        return AnalysisDocument.model_validate(study)

    def tables(self, doc: dict[str, Any]) -> list[Grid]:
        """Accuracy and pairs per ground-truth distance bin."""
        bins = doc["bins"]
        rows = (("accuracy", tuple(b["accuracy"] for b in bins)), ("pairs", tuple(b["total"] for b in bins)))
        header = tuple(f"{b['low']:.1f}-{b['high']:.1f}" for b in bins)
        return [Grid(header, rows, "Locality per distance bin")]

    def figures(self, doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
        """Draw the locality curve, the paper's dashed (Fig. 11), then the example maps (Fig. 10)."""
        bins = doc["bins"]
        x = [(b["low"] + b["high"]) / 2 for b in bins]
        styles = ("k--", "k:", "k-.")
        series = [("this run", x, [b["accuracy"] for b in bins], "o-"),
                  *((f"paper: {name}", x, list(curve)[:len(x)], styles[k % len(styles)])
                    for k, (name, curve) in enumerate(doc.get("reference", {}).items()))]
        paths = charts.curves(series, "cognitive-map locality", folder / "locality",
                              "ground-truth distance (grid cells)", "map-distance accuracy")
        drawn = [DrawnFigure("Locality (Fig. 11)", tuple(paths))]
        grid, run = int(doc.get("grid", {}).get("grid_size", 10)), Path(str(doc.get("run", ""))).name
        for k, example in enumerate(doc.get("examples", [])):
            title = f"{run}: item {example['id']} ({example['scene']})"
            paths = charts.map_pair(_arrays(example["predicted"]), _arrays(example["truth"]), grid, title,
                                    folder / f"map-{k + 1}")
            caption = f"Cognitive map of item {example['id']}: predicted vs ground truth (Fig. 10)"
            drawn.append(DrawnFigure(caption, tuple(paths)))
        return drawn


ANALYSIS = LocalityAnalysis()
