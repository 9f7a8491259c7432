"""Write a generated benchmark in VSI-Bench's own format (JSONL, Parquet) plus its manifest.

The rows are VSI-Bench's official records, written by the benchmark's format module
(:mod:`spatialbench.benchmarks.vsibench.format`: ``test.jsonl`` and ``test.parquet``, with the generated
multiple-choice version of numerical questions, App. B.1, in ``mc_options`` / ``mc_ground_truth``), so
the loader reads back what is written here.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.vsibench.format import write_jsonl, write_parquet
from spatialbench.records.item import Item

__all__ = ["write_benchmark", "write_jsonl", "write_manifest", "write_parquet", "write_together"]


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
