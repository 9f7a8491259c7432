"""Error annotation in the browser: the annotation file of the analyses' error taxonomy, edited in place.

The file is ``RUN/analysis/errors.json`` (schema ``spatialbench.error-annotations``, written by
``spatialbench errors sample RUN`` and read by ``spatialbench errors table``; see
:mod:`spatialbench.analysis.errors`): the run's error sample (VSI-Bench App. B.2: every wrong
multiple-choice answer and the worse half of each numerical task), each item with its response and
self-explanation, the taxonomy's categories (VSI-Bench four, MMSI-Video-Bench five) and the annotator's
``errors`` (category keys; an error with n causes counts 1/n to each) and ``note``. The UI can create the
sample the same way the command does, and saves one item at a time: each read-modify-write holds the
file's lock (:mod:`spatialbench.web.locks`) and writes a uniquely named temporary file that is renamed
over it, so parallel saves are all kept and a failed write leaves the earlier file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spatialbench.analysis.error_table import read_annotations
from spatialbench.analysis.errors import (
    AnnotationError,
    default_taxonomy,
    sample_document,
)
from spatialbench.records.item import Item
from spatialbench.runs.folder import open_run
from spatialbench.web.locks import lock_for, replace_text

FILE = Path("analysis") / "errors.json"


def annotation_file(run: Path) -> Path:
    """``RUN/analysis/errors.json``."""
    return run / FILE


def _write(path: Path, doc: dict[str, Any]) -> None:
    replace_text(path, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def create_sample(run: Path, items: list[Item]) -> dict[str, Any]:
    """Write the run's error sample (as ``errors sample RUN`` does, keeping earlier annotations); return it.

    Raises:
        RunFolderError: the run is not scored. AnnotationError: an earlier file that does not follow the
            schema.
    """
    folder = open_run(run, scored=True)
    path = annotation_file(run)
    with lock_for(path):
        previous = read_annotations(path) if path.exists() else None
        name = default_taxonomy(folder.benchmark)
        doc = sample_document(folder, items, name, previous=previous)
        _write(path, doc)
    return doc


def save_annotation(run: Path, item_id: str, errors: list[str], note: str) -> dict[str, Any]:
    """Set one item's ``errors`` (category keys; empty clears it) and ``note``; return the item.

    Raises:
        FileNotFoundError: no annotation file yet. AnnotationError: the file does not follow the schema,
            the item is not in it, or a category is not one of its taxonomy's.
    """
    path = annotation_file(run)
    with lock_for(path):
        return _save(path, item_id, errors, note)


def _save(path: Path, item_id: str, errors: list[str], note: str) -> dict[str, Any]:
    doc = read_annotations(path)
    keys = {c["key"] for c in doc["categories"]}
    unknown = [e for e in errors if e not in keys]
    if unknown:
        raise AnnotationError(f"{path}: categories {unknown} not in taxonomy {doc['taxonomy']!r}")
    entry = next((e for e in doc["items"] if e["id"] == item_id), None)
    if entry is None:
        raise AnnotationError(f"{path}: item {item_id!r} is not in the error sample")
    entry["errors"] = list(dict.fromkeys(errors))
    entry["note"] = note
    _write(path, doc)
    return entry
