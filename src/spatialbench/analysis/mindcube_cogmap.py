"""MindCube's cognitive-map scores of a run (github mll-lab-nu/MindCube ``CogMapEvaluator``, commit 6d8fd9a).

For a MindCube run whose prompt asked for a map before the answer (a release prompt file of a
``*_cgmap_out`` setting: its ``input_prompt``), each item's map is read from its stored answer (the ``map``
turn of a ``--strategy cognitive-map`` run when there is one) and compared with the item's
``grounded_cogmap`` by :mod:`spatialbench.benchmarks.mindcube.cogmap` (the official metrics). Counts and
means follow ``CogMapEvaluator``: per setting, and overall over the settings the answer accuracy counts
(``translation`` tracked, not in the overall); the shares *parsable*, *valid* (valid format and graph) and
*isomorphic* are over every question of those settings, the similarities are means over the valid maps,
and ``rotations`` counts the best rotation of each valid map.

Where the formats meet spatialbench's own map tools, the same maps are also scored by VSI-Bench's
locality (:mod:`spatialbench.scoring.cogmap_locality`: every pair of ground-truth objects the prediction
holds, binned by ground-truth distance in grid cells; MindCube's maps are on a 10 x 10 grid too):
``locality`` in the document. Locality compares distances only: MindCube's directions, facings and views
have no counterpart there (a mirrored map keeps its locality and loses its directions).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any, ClassVar

from pydantic import BaseModel

from spatialbench.analysis.registry import Analysis, AnalysisDocument
from spatialbench.analysis.stored import stored_answers, turn_texts
from spatialbench.benchmarks.mindcube import IN_OVERALL
from spatialbench.benchmarks.mindcube.cogmap import MapSimilarity, map_similarity, objects_of, read_map
from spatialbench.errors import SpatialBenchError
from spatialbench.records.item import Item
from spatialbench.runs.folder import RunFolder
from spatialbench.scoring.cogmap_locality import PairDistance, locality, map_pairs
from spatialbench.scoring.render import Grid

NAME = "mindcube-cogmap"
MAP_TURN = "map"
MEANS = ("overall", "directional", "facing")


class MindCubeCogmapError(SpatialBenchError, ValueError):
    """A MindCube run without ground-truth maps (its data is not a cognitive-map prompt file)."""


def _summary(results: Sequence[MapSimilarity | None]) -> dict[str, Any]:
    """``CogMapEvaluator``'s counts, shares (of all questions) and means (over valid maps) of ``results``."""
    total = len(results)
    parsed = [r for r in results if r is not None and r.parsable]
    valid = [r for r in parsed if r.valid_format and r.valid_graph]
    summary: dict[str, Any] = {
        "total": total,
        "parsable": len(parsed),
        "valid": len(valid),
        "isomorphic": sum(r.isomorphic for r in valid),
        "rotations": dict(Counter(r.rotation or "none" for r in valid).most_common()),
    }
    for count in ("parsable", "valid", "isomorphic"):
        summary[f"{count}_share"] = summary[count] / total if total else None
    for mean in MEANS:
        summary[mean] = sum(getattr(r, mean) for r in valid) / len(valid) if valid else 0.0
    return summary


def _locality_pairs(text: str | None, truth_text: str) -> list[PairDistance]:
    """Pairs of ground-truth objects (not views) with their distances on both maps, for the locality bins."""
    generated, truth = read_map(text), read_map(truth_text)
    if not isinstance(generated, dict) or not isinstance(truth, dict):
        return []
    names = {o.get("name") for o in truth["objects"] if isinstance(o, dict)} if "objects" in truth else None
    keep = {n: [p.tolist()] for n, (p, _) in objects_of(truth).items() if names is None or n in names}
    try:
        predicted = {n: [p.tolist()] for n, (p, _) in objects_of(generated).items()}
    except (AttributeError, TypeError):  # a map that is no mapping of entries: no pair to read
        return []
    return map_pairs(predicted, keep)


def study(items: Sequence[Item], texts: Mapping[str, str]) -> dict[str, Any]:
    """Return the document's fields for ``items`` and their stored answers ``texts`` (module docstring).

    Raises:
        MindCubeCogmapError: no item has a ``grounded_cogmap``.
    """
    mapped = [i for i in items if isinstance(i.metadata.get("grounded_cogmap"), str)]
    if not mapped:
        raise MindCubeCogmapError("no item has a grounded_cogmap: run a MindCube prompt file of a "
                                  "cognitive-map setting (data/prompts/general/*_cgmap_out.jsonl)")
    results: dict[str, MapSimilarity | None] = {}
    pairs: list[PairDistance] = []
    for item in mapped:
        generated = read_map(texts.get(item.id))
        grounded = read_map(item.metadata["grounded_cogmap"])
        results[item.id] = map_similarity(generated, grounded) if generated and grounded else None
        pairs += _locality_pairs(texts.get(item.id), item.metadata["grounded_cogmap"])
    settings = sorted({i.task for i in mapped})
    bins = locality(pairs)
    return {
        "overall": _summary([results[i.id] for i in mapped if i.task in IN_OVERALL]),
        "settings": {s: _summary([results[i.id] for i in mapped if i.task == s]) for s in settings},
        "no_ground_truth": len(items) - len(mapped),
        "items": {k: (asdict(r) if r is not None else None) for k, r in results.items()},
        "locality": {"edges": list(bins.edges), "correct": list(bins.correct), "total": list(bins.total),
                     "accuracy": list(bins.accuracy), "missing_pairs": bins.missing},
    }


def _row(name: str, summary: Mapping[str, Any]) -> tuple[str, tuple[Any, ...]]:
    shares = tuple(None if summary[f"{c}_share"] is None else 100 * summary[f"{c}_share"]
                   for c in ("parsable", "valid", "isomorphic"))
    return name, (summary["total"], *shares, *(100 * summary[m] for m in MEANS))


def cogmap_grid(doc: Mapping[str, Any]) -> Grid:
    """Per setting and overall: questions, % parsable / valid / isomorphic, mean similarities (%)."""
    rows = [_row(s, doc["settings"][s]) for s in doc["settings"]]
    rows.append(_row("overall (no translation)", doc["overall"]))
    header = ("n", "parsable", "valid", "isomorphic", "overall sim.", "directional sim.", "facing sim.")
    return Grid(header, tuple(rows), "MindCube cognitive maps (official CogMapEvaluator)")


class MindCubeCogmapAnalysis(Analysis):
    """``mindcube-cogmap``: MindCube's map metrics of a run's stored maps (module docstring)."""

    name: ClassVar[str] = NAME
    description: ClassVar[str] = "MindCube's cognitive-map validity, isomorphism and similarity of a run"
    title: ClassVar[str] = "MindCube cognitive maps"
    file: ClassVar[str] = "mindcube_cogmap"
    benchmarks: ClassVar[tuple[str, ...]] = ("mindcube",)
    section: ClassVar[str] = "MindCube Sec. 4, cognitive-map evaluation"

    def compute(self, run: RunFolder, params: BaseModel) -> AnalysisDocument:
        """Score the maps ``run`` stored against its items' ground-truth maps.

        Raises:
            MindCubeCogmapError: no ground-truth map in the run's data. RunFolderError: no store.
        """
        texts = turn_texts(run, MAP_TURN) or {k: a.text for k, a in stored_answers(run).items()}
        return self.document(run=str(run.path.resolve()), **study(list(run.load()), texts))

    def tables(self, doc: dict[str, Any]) -> list[Grid]:
        """Return the per-setting table of :func:`cogmap_grid`."""
        return [cogmap_grid(doc)]


ANALYSIS = MindCubeCogmapAnalysis()
