"""Error annotations: why a model answered wrong, in the papers' taxonomies.

VSI-Bench Sec. 4.2 / Fig. 8 (App. B.2) sorts errors into four categories; MMSI-Video-Bench (Sec. 6, Fig. 7)
into five. One annotation may name several categories (a multi-cause error counts ``1/n`` to each when
aggregated). The annotation file (``WORKDIR/error_annotations.jsonl``) is JSON Lines, appended; the latest
line of a (run, id) wins::

    {"run": "qwen7b", "id": "42", "benchmark": "vsibench", "categories": ["relational_reasoning"],
     "note": "...", "annotator": "ana", "time": 1764580000.0}
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

TAXONOMIES: dict[str, tuple[tuple[str, str], ...]] = {
    "vsibench": (
        ("visual_perception", "Visual perception"),
        ("linguistic_intelligence", "Linguistic intelligence"),
        ("relational_reasoning", "Relational reasoning"),
        ("egocentric_allocentric", "Egocentric-allocentric transformation"),
    ),
    "mmsi-video": (
        ("detailed_grounding", "Detailed grounding"),
        ("id_mapping", "ID mapping"),
        ("geometric_reasoning", "Geometric reasoning"),
        ("prompt_alignment", "Prompt alignment"),
        ("latent_logical_inference", "Latent logical inference"),
    ),
}
FILE_NAME = "error_annotations.jsonl"


def taxonomy(benchmark: str) -> tuple[tuple[str, str], ...]:
    """Return the (key, label) categories: MMSI-Video-Bench's five, else VSI-Bench's four."""
    return TAXONOMIES.get(benchmark, TAXONOMIES["vsibench"])


def append_annotation(path: Path, run: str, benchmark: str, item_id: str, categories: list[str],
                      note: str = "", annotator: str = "") -> None:
    """Append one annotation.

    Raises:
        ValueError: no category, or one outside the benchmark's taxonomy.
    """
    known = {key for key, _ in taxonomy(benchmark)}
    unknown = [c for c in categories if c not in known]
    if not categories or unknown:
        raise ValueError(f"categories must be among {', '.join(sorted(known))}; got {categories}")
    entry = {"run": run, "id": str(item_id), "benchmark": benchmark, "categories": categories, "note": note,
             "annotator": annotator, "time": time.time()}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")


def latest_annotations(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """``(run, id)`` → the latest annotation; lines that are not annotations are skipped (never raises)."""
    latest: dict[tuple[str, str], dict[str, Any]] = {}
    if not path.is_file():
        return latest
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
            latest[(str(entry["run"]), str(entry["id"]))] = entry
        except (json.JSONDecodeError, KeyError, TypeError):
            continue
    return latest
