"""Read model predictions into ``{item id: response text}`` from the formats people have.

Formats (detected from the content):

* ``jsonl`` — one ``{"id": ..., "response": "..."}`` per line.
* ``lmms-eval`` — lmms-eval ``*samples_<task>.jsonl`` logs (a file, or a folder searched recursively as
  lmms-eval writes them under a model sub-folder with a date prefix): the response is
  ``filtered_resps[0]`` (what lmms-eval's ``process_results`` receives), falling back to ``resps[0][0]``;
  the item is ``doc["id"]``, or the scene + question join below when the doc has no id.
* ``export`` — a JSON object ``{item id: response text}``, or JSON files holding a list of question objects
  or ``{"questions": [...]}`` with a response
  field (``response``, ``prediction``, ``model_answer`` or any ``*_answer`` such as ``gemini_answer``),
  e.g. official_samples/gemini3flash_5scenes/responses. Without ids they are joined to items on
  (``scene_name``, ``question`` text); a key shared by several items is refused for that row (a
  :class:`RowError` naming the items) rather than guessed.

Bad rows become :class:`RowError` (file, line — ``entry N`` for JSON lists —, field); the other rows
are kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spatialbench.records.files import Record, read_records
from spatialbench.records.item import Item
from spatialbench.records.rows import EntryIndex, RowError

RESPONSE_FIELDS = ("response", "prediction", "model_answer")
_MISSING = object()


@dataclass
class Predictions:
    """Responses by item id, the detected format and the rows that could not be used."""

    responses: dict[str, str] = field(default_factory=dict)
    format: str = ""
    errors: list[RowError] = field(default_factory=list)


def _response_field(record: dict[str, Any]) -> str | None:
    for name in RESPONSE_FIELDS:
        if name in record:
            return name
    return next((k for k in record if k.endswith("_answer")), None)


class _Joiner:
    """Maps (scene, question) to item ids; refuses keys that several items share."""

    def __init__(self, items: Iterable[Item]) -> None:
        self.ids: dict[tuple[str, str], list[str]] = {}
        for item in items:
            self.ids.setdefault(self.key(item.scene_id, item.question), []).append(item.id)

    @staticmethod
    def key(scene: object, question: object) -> tuple[str, str]:
        return str(scene or "").strip(), " ".join(str(question or "").split())

    def find(self, record: dict[str, Any]) -> str | RowError:
        """Return the one item id for the record's (scene, question), else why not (file/line unset)."""
        key = self.key(record.get("scene_name"), record.get("question"))
        ids = self.ids.get(key, [])
        if len(ids) == 1:
            return ids[0]
        if not ids:
            return RowError("", None, "question", "matches no item (scene + question text)")
        message = (f"scene {key[0]!r} question {key[1][:60]!r} matches {len(ids)} items "
                   f"({', '.join(ids[:5])}); refused (give predictions with ids)")
        return RowError("", None, "question", message)


def _item_id(record: dict[str, Any], joiner: _Joiner) -> str | RowError:
    return str(record["id"]) if record.get("id") is not None else joiner.find(record)


def _add(
    out: Predictions, item_id: str | RowError, text: object, where: tuple[str, int | None], name: str
) -> None:
    file, line = where
    if isinstance(item_id, RowError):
        out.errors.append(RowError(file, line, item_id.field, item_id.message))
    elif text is _MISSING:
        out.errors.append(RowError(file, line, name, "missing (each line needs 'id' and 'response')"))
    elif not isinstance(text, str):
        out.errors.append(RowError(file, line, name, f"response is not a string: {text!r}"))
    elif item_id in out.responses:
        out.errors.append(RowError(file, line, "id", f"second prediction for item {item_id!r} (first kept)"))
    else:
        out.responses[item_id] = text


def _lmms_response(record: dict[str, Any]) -> object:
    filtered = record.get("filtered_resps")
    if isinstance(filtered, list) and filtered:
        first = filtered[0]
        return first[0] if isinstance(first, list) and first else first
    resps = record.get("resps")
    if isinstance(resps, list) and resps and isinstance(resps[0], list) and resps[0]:
        return resps[0][0]
    return None


def _jsonl_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*samples_*.jsonl")) or sorted(folder.glob("*.jsonl"))


def _jsonl_records(path: Path) -> Iterator[Record | RowError]:
    for file in _jsonl_files(path) if path.is_dir() else [path]:
        yield from read_records(file)


def detect_format(path: Path) -> str:
    """Return ``jsonl``, ``lmms-eval`` or ``export`` for ``path`` (file or folder)."""
    if path.is_dir():
        jsonl = _jsonl_files(path)
        if not jsonl:
            return "export"
        path = jsonl[0]
    if path.suffix.lower() == ".json":
        return "export"
    for entry in read_records(path):
        if not isinstance(entry, RowError):
            record = entry[2]
            return "lmms-eval" if {"resps", "filtered_resps", "doc"} & set(record) else "jsonl"
    return "jsonl"


def read_predictions(path: str | Path, items: Iterable[Item], format: str | None = None) -> Predictions:
    """Read predictions for ``items`` from ``path``.

    Args:
        path: a JSONL file, an lmms-eval samples file or folder, or an export file or folder.
        items: the items the predictions answer (for joins without ids).
        format: ``jsonl``, ``lmms-eval`` or ``export``; detected when None.

    Raises:
        FileNotFoundError: ``path`` missing.
        ValueError: unknown ``format``.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"predictions not found: {path}")
    items = list(items)
    format = format or detect_format(path)
    readers = {"jsonl": _read_jsonl, "lmms-eval": _read_lmms, "export": _read_export}
    if format not in readers:
        raise ValueError(f"unknown predictions format {format!r}; use one of {', '.join(readers)}")
    out = Predictions(format=format)
    readers[format](path, _Joiner(items), out)
    return out


def _readable(entries: Iterable[Record | RowError], out: Predictions) -> Iterator[Record]:
    """Yield the readable records; unreadable rows go to ``out.errors``."""
    for entry in entries:
        if isinstance(entry, RowError):
            out.errors.append(entry)
        else:
            yield entry


def _read_jsonl(path: Path, joiner: _Joiner, out: Predictions) -> None:
    for file, line, record in _readable(_jsonl_records(path), out):
        if record.get("id") is None:
            out.errors.append(RowError(file, line, "id", "missing (each line needs 'id' and 'response')"))
            continue
        _add(out, str(record["id"]), record.get("response", _MISSING), (file, line), "response")


def _read_lmms(path: Path, joiner: _Joiner, out: Predictions) -> None:
    for file, line, record in _readable(_jsonl_records(path), out):
        doc = record.get("doc")
        if not isinstance(doc, dict):
            message = f"missing or not an object: {doc!r:.60}" if doc is not None else "missing"
            out.errors.append(RowError(file, line, "doc", message))
            continue
        _add(out, _item_id(doc, joiner), _lmms_response(record), (file, line), "filtered_resps")


def _id_map(path: Path) -> dict[str, Any] | None:
    """Return the ``{item id: response}`` object of a ``.json`` file, or None for any other content."""
    if not path.is_file() or path.suffix.lower() != ".json":
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:  # bad JSON or bytes: read_records reports it
        return None
    if not isinstance(data, dict) or "questions" in data or not data:
        return None
    return data if all(isinstance(v, str) or v is None for v in data.values()) else None


def _read_export(path: Path, joiner: _Joiner, out: Predictions) -> None:
    mapping = _id_map(path)
    if mapping is not None:  # {"question_0000": "A", ...}
        for position, (item_id, text) in enumerate(mapping.items(), start=1):
            _add(out, str(item_id), text, (str(path), EntryIndex(position)), "response")
        return
    for file, line, record in _readable(read_records(path), out):
        name = _response_field(record)
        if name is None:
            message = f"no response field (one of {RESPONSE_FIELDS} or '*_answer')"
            out.errors.append(RowError(file, line, "response", message))
            continue
        _add(out, _item_id(record, joiner), record[name], (file, line), name)
