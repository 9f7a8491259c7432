"""Raw scan labels → VSI-Bench categories, from ``scene/ingest/data/labels.json`` (data, not code).

Rule (VSI-Bench App. B.1 unifies the three datasets' annotations into one vocabulary): a raw label is
looked up (case and surrounding spaces ignored, ``_`` read as a space) in the user's extra table, then in
the dataset's table; a label found in neither is kept when it is already a VSI-Bench category of any dataset
(``scene/data/categories.json``) and dropped otherwise. Structural labels (wall, floor, ceiling...) are always
dropped silently; other dropped labels are counted so the ingest report can list them. An extra table's
targets must be VSI-Bench categories (:func:`read_extra_labels`).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from spatialbench.errors import SpatialBenchError
from spatialbench.scene.categories import vocabulary


@cache
def _data() -> dict[str, Any]:
    text = resources.files("spatialbench.scene.ingest").joinpath("data/labels.json").read_text()
    return dict(json.loads(text))


def normalise(label: str) -> str:
    """Lower-case, ``_`` → space, runs of spaces collapsed, stripped."""
    return " ".join(label.replace("_", " ").lower().split())


@dataclass
class LabelMap:
    """Maps one dataset's raw labels to meta-info categories and counts what it drops.

    Attributes:
        table: normalised raw label -> category (the dataset's table, then the user's extras on top).
        dropped: raw label -> number of instances dropped (not structural, no category).
    """

    table: dict[str, str]
    dropped: dict[str, int] = field(default_factory=dict)

    @classmethod
    def for_dataset(cls, dataset: str, extra: Mapping[str, str] | None = None) -> LabelMap:
        """Return the table of ``dataset`` (``scannet``, ``arkitscenes``, ``scannetpp``) plus ``extra``.

        Raises:
            KeyError: unknown dataset (the message lists the known ones).
        """
        data = _data()
        if dataset not in data or dataset.startswith("_") or dataset == "structure":
            known = [k for k in data if not k.startswith("_") and k != "structure"]
            raise KeyError(f"no label table for dataset {dataset!r}; known: {', '.join(known)}")
        table = {normalise(k): v for k, v in data[dataset].items()}
        table.update({normalise(k): v for k, v in (extra or {}).items()})
        return cls(table)

    def category(self, label: str) -> str | None:
        """Return the category of a raw label, or None (structural or unknown; unknown ones are counted)."""
        key = normalise(label)
        if key in self.table:
            return self.table[key]
        if key in _vocabulary():
            return key
        if key not in _structure():
            self.dropped[label] = self.dropped.get(label, 0) + 1
        return None


@cache
def _vocabulary() -> frozenset[str]:
    return frozenset(vocabulary())


@cache
def _structure() -> frozenset[str]:
    return frozenset(normalise(s) for s in _data()["structure"])


class LabelFileError(SpatialBenchError, ValueError):
    """An extra label table that cannot be used; the message names the file, line and entry."""


def read_extra_labels(path: Path) -> dict[str, str]:
    """Read a JSON object raw label -> VSI-Bench category (the ``--labels`` file of ``spatialbench ingest``).

    Raises:
        LabelFileError: unreadable or not JSON, not an object of texts, or a target that is not a category
            of ``scene/data/categories.json`` (naming the file, the entry's line and near misses).
    """
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise LabelFileError(f"{path}: {err}") from None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise LabelFileError(f"{path}: expected an object raw label -> category name")
    for label, target in data.items():
        if target not in _vocabulary():
            near = difflib.get_close_matches(normalise(target), sorted(_vocabulary()), n=3)
            hint = f"did you mean {' or '.join(near)}?" if near else "see scene/data/categories.json"
            raise LabelFileError(f"{path}{_line_of(text, label)}: {label!r} -> {target!r} is not a "
                                 f"VSI-Bench category ({hint})")
    return data


def _line_of(text: str, key: str) -> str:
    """`` line N`` of the (last) entry ``key`` in the JSON ``text``, or ``""`` when it cannot be found."""
    written = (json.dumps(key), json.dumps(key, ensure_ascii=False))
    found = [m.start() for w in written for m in re.finditer(re.escape(w) + r"\s*:", text)]
    return f" line {text.count(chr(10), 0, max(found)) + 1}" if found else ""
