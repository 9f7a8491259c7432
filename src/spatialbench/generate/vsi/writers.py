"""Write a generated benchmark in the official VSI-Bench schema (JSONL, Parquet) plus its manifest.

Row fields, as in the official ``test.jsonl``: ``id`` (int), ``dataset``, ``scene_name``,
``question_type``, ``question``, ``options`` (list of ``"A. ..."`` or null for numerical questions),
``ground_truth`` (letter, or the number as text). Two extra columns carry the generated multiple-choice
version of numerical questions (App. B.1): ``mc_options`` and ``mc_ground_truth`` (null for
multiple-choice questions). Both files load with ``datasets.load_dataset("json"|"parquet", ...)``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from spatialbench.records.item import Item

SCHEMA = pa.schema(
    [
        ("id", pa.int64()),
        ("dataset", pa.string()),
        ("scene_name", pa.string()),
        ("question_type", pa.string()),
        ("question", pa.string()),
        ("options", pa.list_(pa.string())),
        ("ground_truth", pa.string()),
        ("mc_options", pa.list_(pa.string())),
        ("mc_ground_truth", pa.string()),
    ]
)


def official_row(item: Item) -> dict[str, Any]:
    """Return the official-schema row of a generated item (see module docstring)."""
    return {
        "id": int(item.id),
        "dataset": item.dataset,
        "scene_name": item.scene_id,
        "question_type": item.task,
        "question": item.question,
        "options": list(item.options) or None,
        "ground_truth": item.ground_truth,
        "mc_options": item.metadata.get("mc_options"),
        "mc_ground_truth": item.metadata.get("mc_ground_truth"),
    }


def write_jsonl(items: Sequence[Item], path: Path | str) -> None:
    """One official row per line, UTF-8, keys in schema order."""
    lines = (json.dumps(official_row(it), ensure_ascii=False) for it in items)
    Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def write_parquet(items: Sequence[Item], path: Path | str) -> None:
    """Write the same rows as a Parquet table with a fixed schema (``SCHEMA``)."""
    table = pa.Table.from_pylist([official_row(it) for it in items], schema=SCHEMA)
    pq.write_table(table, path)


def write_manifest(manifest: dict[str, Any], path: Path | str) -> None:
    """Write the manifest as indented JSON with sorted keys (byte-stable for a seed)."""
    Path(path).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def write_together(writers: Mapping[Path, Callable[[Path], object]]) -> None:
    """Write several files so that a reader never sees a new one beside an old one.

    Each ``writers[path](tmp)`` writes to a temporary file beside ``path``; only when every writer has
    finished are the files renamed into place (``os.replace``, atomic per file). An error or interrupt
    before that leaves the old files untouched and removes the temporary ones.
    """
    temps: dict[Path, Path] = {}
    try:
        for final, write in writers.items():
            # the writer creates the file itself, so it gets the usual permissions (mkstemp's are 0600)
            temps[final] = final.with_name(f".{final.name}.{os.getpid()}.partial")
            write(temps[final])
        for final, temp in temps.items():
            os.replace(temp, final)
    finally:
        for temp in temps.values():
            temp.unlink(missing_ok=True)


def write_benchmark(items: Sequence[Item], manifest: dict[str, Any], out_dir: Path | str) -> dict[str, Path]:
    """Write ``test.jsonl``, ``test.parquet`` and ``manifest.json`` into ``out_dir`` (created).

    The three files are replaced together (:func:`write_together`): an interrupted re-run keeps the
    previous benchmark whole.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"jsonl": out / "test.jsonl", "parquet": out / "test.parquet", "manifest": out / "manifest.json"}
    write_together(
        {
            paths["jsonl"]: lambda p: write_jsonl(items, p),
            paths["parquet"]: lambda p: write_parquet(items, p),
            paths["manifest"]: lambda p: write_manifest(manifest, p),
        }
    )
    return paths
