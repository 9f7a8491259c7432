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

``RUN/analysis/cogmap_locality.json`` (``schema`` ``spatialbench.cogmap-locality``, ``version`` 1):
``run``, ``grid`` (size and normalisation), ``categories``, ``bins`` (``low``, ``high``, ``correct``,
``total``, ``accuracy`` 0..1 or null), ``below`` / ``above`` / ``missing_pairs``, ``maps`` (``stored``,
``read``, ``no_point``, ``with_problems``, ``no_scene``, ``outside_grid`` maps and
``points_outside_grid``), ``unknown_categories`` (name -> count), ``reference`` (Table 4 curves) and
``items`` (per map: ``id``, ``scene``, ``categories``, ``missing``, ``unknown``, ``problems``, ``pairs``,
``correct``, ``outside_grid``).

Predicted points outside the grid (a coordinate below ``origin`` or above ``origin + grid_size - 1``,
the cells App. B.4's prompt offers) are neither dropped nor clipped: they are paired as given and
counted per map (``outside_grid``), so a map drawn off the grid is visible in the output.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from spatialbench.analysis.run_folder import RunFolder, stored_turns
from spatialbench.prompting.cogmap import categories_of_interest
from spatialbench.prompting.cogmap_parse import parse_map
from spatialbench.records.item import Item
from spatialbench.scene.categories import scene_category
from spatialbench.scene.cogmap import GridSpec, ground_truth_map, scene_names
from spatialbench.scene.model import Scene
from spatialbench.scoring.cogmap_locality import Locality, PairDistance, locality, map_pairs

SCHEMA = "spatialbench.cogmap-locality"
VERSION = 1
MAP_TURN = "map"  # the map turn of prompting.strategies.cogmap
REFERENCE = {  # Table 4 (App. B.5), accuracy per bin
    "Gemini-1.5 Pro": (0.64, 0.48, 0.35, 0.35, 0.28, 0.12, 0.06, 0.00),
    "LLaVA-Video-72B": (0.59, 0.45, 0.42, 0.30, 0.15, 0.23, 0.16, 0.00),
    "LLaVA-Video-7B": (0.50, 0.43, 0.34, 0.29, 0.19, 0.18, 0.14, 0.00),
}


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
    return MapResult(
        item.id, scene.scene_id, names, parsed.missing, parsed.unknown, parsed.problems, absent, pairs,
        outside_grid(parsed.points, spec),
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
    maps = stored_turns(run.path, MAP_TURN)
    if not maps:
        raise ValueError(
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
    return {
        "schema": SCHEMA,
        "version": VERSION,
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
    }
