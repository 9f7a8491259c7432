"""Predicted and ground-truth cognitive maps side by side (VSI-Bench Fig. 10).

Drawn for a run whose ``analysis/cogmap_locality.json`` exists (``spatialbench cogmap RUN``): the map
turns the run stored are read with the same parser, categories of interest and grid settings as the
locality study (the document's ``grid`` and ``categories``), and the ground truth comes from the scene
meta-information beside the benchmark (``DATA/meta_info``). The first ``MAPS`` maps in benchmark order
are drawn; a map whose scene is not found is left out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from spatialbench.analysis.cogmap import MAP_TURN, item_categories
from spatialbench.analysis.run_folder import stored_turns
from spatialbench.prompting.cogmap_parse import parse_map
from spatialbench.report import figures
from spatialbench.report.plots import Figure, figure_of, slug
from spatialbench.report.runs import RunData
from spatialbench.runs.plan import data_root
from spatialbench.scene import MetaInfoError, load_meta_info
from spatialbench.scene.categories import scene_category
from spatialbench.scene.cogmap import GridSpec, ground_truth_map

MAPS = 3


def map_figures(out: Path, run: RunData, doc: dict[str, Any]) -> list[Figure]:
    """Fig. 10 for up to :data:`MAPS` stored maps of ``run`` (module docstring); [] when none can be drawn."""
    texts = stored_turns(run.path, MAP_TURN)
    meta = data_root(str(run.data)) / "meta_info"
    if not texts or not meta.exists():
        return []
    try:
        scenes = load_meta_info(meta)
        spec = GridSpec(**doc["grid"])
    except (MetaInfoError, FileNotFoundError, TypeError, ValueError):
        return []
    drawn = []
    for item in (i for i in run.items if i.id in texts and i.scene_id in scenes):
        scene = scenes[str(item.scene_id)]
        names = item_categories(item, scene, str(doc.get("categories", "scene")))
        present = [n for n in names if scene_category(scene, n) is not None or n in scene.objects]
        parsed = parse_map(texts[item.id], names)
        predicted = {name: np.asarray(xy, dtype=float).reshape(-1, 2) for name, xy in parsed.points.items()}
        stem = out / "figures" / f"cogmap-{slug(run.label)}-{slug(item.id)}"
        paths = figures.map_pair(predicted, ground_truth_map(scene, spec, present), spec.grid_size,
                                 f"{run.label}: item {item.id} ({scene.scene_id})", stem)
        caption = f"Cognitive map of item {item.id}: predicted vs ground truth (Fig. 10)"
        drawn.append(figure_of(out, paths, caption))
        if len(drawn) == MAPS:
            break
    return drawn
