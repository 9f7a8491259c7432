"""Read model predictions into ``{item id: response text}`` from the formats people have.

Formats (detected from the content):

* ``jsonl`` — one ``{"id": ..., "response": "..."}`` per line; a line without ``response`` takes its
  response field by the rule below (``{"id": 7, "prediction": "B"}``).
* ``lmms-eval`` — an lmms-eval ``*samples_<task>.jsonl`` log (a file, or a folder searched recursively as
  lmms-eval writes them under a model sub-folder with a date prefix; of a folder's logs, the one whose
  logged questions are the items' is read and named in a warning, another task's left out): the response
  is ``filtered_resps`` (what lmms-eval's ``process_results`` receives; a string or a one-element list),
  falling back to ``resps``; the item is ``doc``, or — real vsibench logs have no ``doc`` — the item under
  a metric key (:mod:`spatialbench.scoring.lmms_eval_log`); its ``id``, or the scene + question join below.
* ``export`` — a JSON object ``{item id: response text}``, or JSON files holding a list of question objects
  or ``{"questions": [...]}`` with a response field, e.g. official_samples/gemini3flash_5scenes/responses.
  Without ids they are joined to items on (``scene_name``, ``question`` text); a key shared by several
  items is refused for that row (a :class:`RowError` naming the items) rather than guessed.
* ``table`` — ``.csv`` / ``.tsv`` / ``.xlsx`` with a header row: a plain ``id,response`` CSV or a
  VLMEvalKit result table (``index``, ``prediction``; :mod:`spatialbench.scoring.prediction_tables`).
  The item id is ``id``, else ``index``, else the scene + question join. A folder is read as a table
  when it holds exactly one and no ``.jsonl`` / ``.json`` file; a folder of several tables, or of tables
  beside ``.jsonl`` / ``.json`` files (VLMEvalKit's output folder), is refused, naming them (give the file).

The response field of exports and tables is the one field named ``response``, ``prediction``,
``model_answer`` or ``*_answer`` (``gemini_answer``). A file whose record has two such fields
(``correct_answer`` beside ``gpt_answer``), or whose only one names a ground truth (``correct_answer``,
``gt_answer``), is refused as a whole with a ValueError naming the fields — one of them may be the
ground truth, and nothing is ever scored from it; ``response_field=`` (``--response-field``) names the
field to use instead. ``answer`` is never a response field (VLMEvalKit's ground-truth column).

Bad rows become :class:`RowError` (file, line — ``entry N`` for JSON lists —, field); the other rows
are kept. A line or row that is not UTF-8 is such a row (named with its line and byte); a file that is
UTF-16 as a whole (a byte-order mark: Excel's "Unicode Text" export) is refused with a ValueError
(``FILE:1: UTF-16 text ...``) — ``score`` exits 2 for it, as for any unreadable input file.
"""

from __future__ import annotations

import json
import numbers
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from spatialbench.records.blocks import Block, jsonl_blocks
from spatialbench.records.bulk import paused_gc
from spatialbench.records.files import UTF16_TEXT, NotUtf8Error, Record, read_records, read_text
from spatialbench.records.item import Item
from spatialbench.records.item_table import ItemTable
from spatialbench.records.rows import EntryIndex, RowError
from spatialbench.records.surrogates import LONE_SURROGATE
from spatialbench.scoring.lmms_eval_log import (
    choose_log,
    filter_changed,
    is_sample,
    refuse_results_file,
    sample_files,
    sample_item,
    sample_response,
)
from spatialbench.scoring.prediction_blocks import hold_clean_blocks
from spatialbench.scoring.prediction_tables import (
    TABLE_SUFFIXES,
    check_folder,
    file_names,
    read_table,
    table_files,
)
from spatialbench.scoring.question_check import LoggedQuestion, check_questions

RESPONSE_FIELDS = ("response", "prediction", "model_answer")
FORMATS = ("jsonl", "lmms-eval", "export", "table")
_TRUTH_FIELD = re.compile(r"^(?:correct|gt|true|gold|target|reference|expected|ground_truth)_", re.IGNORECASE)
_MISSING = object()
T = TypeVar("T")


@dataclass
class Predictions:
    """Responses by item id, the detected format, the rows that could not be used, and notes on the input.

    ``source``: what was read — the path given, or the log chosen from an lmms-eval output folder.
    ``questions``: item id -> the question text its row carries (lmms-eval logs, tables, exports).
    """

    responses: dict[str, str] = field(default_factory=dict)
    format: str = ""
    errors: list[RowError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    filtered: list[str] = field(default_factory=list)
    """Ids whose scored text a tool's filter changed from the model's raw response (lmms-eval's
    ``filtered_resps`` unlike ``resps``, e.g. a stripped ``<think>`` block), in file order."""
    source: Path | None = None
    questions: dict[str, LoggedQuestion] = field(default_factory=dict)
    where: dict[str, tuple[str, int | None]] = field(default_factory=dict)
    """Item id -> the file and line its response was read from."""

    def log_question(self, item_id: str | RowError, record: dict[str, Any], where: tuple[str, int]) -> None:
        """Keep the question text of ``record`` for ``item_id`` (first row kept), when it carries one."""
        question = record.get("question")
        if isinstance(item_id, str) and isinstance(question, str):
            self.questions.setdefault(item_id, LoggedQuestion(question, f"{where[0]}:{where[1]}"))


def _refusal(where: RowError, fields: list[str]) -> ValueError:
    """Build the error refusing a file whose record ``where`` has ``fields`` as possible answers."""
    place = str(where).rstrip(": ")
    if len(fields) == 1:
        why = f"its only answer field {fields[0]!r} names a ground truth, not a model's response"
    else:
        why = f"several fields could be the model's answer: {', '.join(fields)}"
    return ValueError(f"{place}: {why}; refused, so that nothing is scored from a ground truth "
                      "(name the response field with --response-field NAME)")


def _response_field(record: dict[str, Any], where: RowError, chosen: str | None) -> str | None:
    """Return the response field of ``record`` (None: none); ValueError as the module docstring says."""
    if chosen is not None:
        return chosen if chosen in record else None
    fields = [k for k in record if k in RESPONSE_FIELDS or str(k).endswith("_answer")]
    if len(fields) > 1 or (fields and _TRUTH_FIELD.match(fields[0])):
        raise _refusal(where, fields)
    return fields[0] if fields else None


class _Joiner:
    """Maps (scene, question) to item ids; refuses keys that several items share.

    The index is built on the first lookup: predictions with ids never need it.
    """

    def __init__(self, items: ItemTable) -> None:
        self.items = items
        self._ids: dict[tuple[str, str], list[str]] | None = None

    @property
    def ids(self) -> dict[tuple[str, str], list[str]]:
        if self._ids is None:
            self._ids = {}
            columns = (self.items.column(name) for name in ("scene_id", "question", "id"))
            for scene, question, item_id in zip(*columns, strict=True):
                self._ids.setdefault(self.key(scene, question), []).append(item_id)
        return self._ids

    @staticmethod
    def key(scene: object, question: object) -> tuple[str, str]:
        return str(scene or "").strip(), " ".join(str(question or "").split())

    def find(self, record: dict[str, Any]) -> str | RowError:
        """Return the one item id for the record's (scene, question), else why not (file/line unset)."""
        key = self.key(record.get("scene_name"), record.get("question"))
        if not key[1]:
            return RowError("", None, "id", "empty, and no question to find the item by")
        ids = self.ids.get(key, [])
        if len(ids) == 1:
            return ids[0]
        if not ids:
            return RowError("", None, "question", "matches no item (scene + question text)")
        message = (f"scene {key[0]!r} question {key[1][:60]!r} matches {len(ids)} items "
                   f"({', '.join(ids[:5])}); refused (give predictions with ids)")
        return RowError("", None, "question", message)


def _id_text(value: object, name: str = "id") -> str | RowError:
    """Spell an id as the items do: text as is, whole numbers (also ``3.0``) as digits; else a row error."""
    if type(value) is int or isinstance(value, str):  # the common cases first: called once per row
        return str(value)
    is_bool = isinstance(value, bool) or type(value).__name__ == "bool_"  # numpy's bool from Parquet
    if not is_bool and isinstance(value, numbers.Integral):  # numpy ints from Parquet: exact
        return str(int(value))
    if not is_bool and isinstance(value, numbers.Real) and float(value).is_integer():
        return str(int(float(value)))
    return RowError("", None, name, f"not a string or whole number: {value!r}")


def _item_id(record: dict[str, Any], joiner: _Joiner, id_fields: tuple[str, ...] = ("id",)) -> str | RowError:
    for name in id_fields:
        if record.get(name) not in (None, ""):
            return _id_text(record[name], name)
    return joiner.find(record)


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
    # UTF-8 cannot write a lone surrogate into items.csv; ASCII text (a flag of the string) holds none
    elif not text.isascii() and (lone := LONE_SURROGATE.search(text)) is not None:
        code = f"\\u{ord(lone.group()):04x}"
        message = f"a lone UTF-16 surrogate ({code} at character {lone.start() + 1}): not text"
        out.errors.append(RowError(file, line, name, message))
    elif item_id in out.responses:
        out.errors.append(RowError(file, line, "id", f"second prediction for item {item_id!r} (first kept)"))
    else:
        out.responses[item_id] = text
        out.where[item_id] = where


def _jsonl_files(folder: Path) -> list[Path]:
    return sample_files(folder) or sorted(folder.glob("*.jsonl"))


def _jsonl_records(path: Path) -> Iterator[Record | RowError]:
    for file in _jsonl_files(path) if path.is_dir() else [path]:
        yield from read_records(file)


def _jsonl_blocks(path: Path) -> Iterator[Record | Block | RowError]:
    for file in _jsonl_files(path) if path.is_dir() else [path]:  # a .jsonl file in blocks of lines
        yield from jsonl_blocks(file) if file.suffix.lower() == ".jsonl" else read_records(file)


def detect_format(path: Path) -> str:
    """Return ``jsonl``, ``lmms-eval``, ``export`` or ``table`` for ``path`` (file or folder)."""
    if path.is_dir():
        jsonl = _jsonl_files(path)
        if not jsonl:
            return "table" if table_files(path) else "export"
        path = jsonl[0]
    if path.suffix.lower() in TABLE_SUFFIXES:
        return "table"
    if path.suffix.lower() == ".json":
        return "export"
    for entry in read_records(path):
        if not isinstance(entry, RowError):
            return "lmms-eval" if is_sample(entry[2]) else "jsonl"
    return "jsonl"


def read_predictions(
    path: str | Path, items: Iterable[Item], format: str | None = None, response_field: str | None = None
) -> Predictions:
    """Read predictions for ``items`` from ``path``.

    Args:
        path: a JSONL file, an lmms-eval samples file or folder, an export file or folder, or a table.
        items: the items the predictions answer (for joins without ids).
        format: one of ``FORMATS``; detected when None.
        response_field: the field holding the response in exports and tables (default: the one field
            named as the module docstring says).

    Raises:
        FileNotFoundError: ``path`` missing.
        ValueError: unknown ``format``; a file refused for its answer fields (message names them); an
            unreadable ``.xlsx``; a UTF-16 file (:class:`~spatialbench.records.files.NotUtf8Error`); a
            folder of several tables, or of tables beside ``.jsonl`` / ``.json`` files; an lmms-eval
            output folder with no log, or several, of these items' questions
            (:func:`~spatialbench.scoring.lmms_eval_log.choose_log`); lmms-eval's aggregated results file
            (:func:`~spatialbench.scoring.lmms_eval_log.refuse_results_file`).
        QuestionMismatchError (a ValueError): rows carrying question texts that are not the items' (the
            wrong annotation file; :mod:`spatialbench.scoring.question_check`).
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"predictions not found: {path}")
    items, notes = ItemTable.of(items), []  # fields read as columns (a loader's table as it is)
    if path.is_dir():
        check_folder(path)
        if format in (None, "lmms-eval") and sample_files(path):  # an lmms-eval output folder: one task
            path, note = choose_log(path, _question_of(items), items[0].benchmark if items else None)
            notes.append(note)
    format = format or detect_format(path)
    readers = dict(zip(FORMATS, (_read_jsonl, _read_lmms, _read_export, _read_table), strict=True))
    if format not in readers:
        raise ValueError(f"unknown predictions format {format!r}; use one of {', '.join(FORMATS)}")
    out = Predictions(format=format, warnings=notes, source=path)
    with paused_gc():  # many new rows: no cycle scans while they are read (records.bulk)
        readers[format](path, _Joiner(items), out, response_field)
    if not out.responses:  # nothing read: say so if it is lmms-eval's scores rather than its answers
        refuse_results_file(path)
    check_questions(out.questions, items)
    return out


def _question_of(items: ItemTable) -> Callable[[dict[str, Any]], str | None]:
    """Return doc → the question of the item it names (its id, else the scene + question join), or None."""
    questions, joiner = dict(zip(items.column("id"), items.column("question"), strict=True)), _Joiner(items)

    def question(doc: dict[str, Any]) -> str | None:
        found = _item_id(doc, joiner)
        return None if isinstance(found, RowError) else questions.get(found)

    return question


def _readable(entries: Iterable[T | RowError], out: Predictions) -> Iterator[T]:
    """Yield the readable records; unreadable rows go to ``out.errors``; a UTF-16 file raises ValueError."""
    for entry in entries:
        if isinstance(entry, RowError) and entry.message == UTF16_TEXT:
            raise NotUtf8Error(str(entry))  # a whole file unreadable: a set-up error, not a skipped row
        if isinstance(entry, RowError):
            out.errors.append(entry)
        else:
            yield entry


def _read_jsonl(path: Path, joiner: _Joiner, out: Predictions, field: str | None) -> None:
    def clean_line(file: str, line: int, item_id: str, text: str) -> None:  # a clean block's line
        _add(out, item_id, text, (file, line), field or "response")

    entries: Iterator[Record | Block] = _readable(
        hold_clean_blocks(_jsonl_blocks(path), out.responses, field, clean_line), out)
    for entry in entries:
        if not isinstance(entry, Block):
            _jsonl_row(out, entry, field)
        else:  # a block with a line to report: one by one
            for line, record in enumerate(entry.records, start=entry.first):
                _jsonl_row(out, (entry.file, line, record), field)


def _jsonl_row(out: Predictions, entry: Record, field: str | None) -> None:
    file, line, record = entry
    if record.get("id") is None:
        out.errors.append(RowError(file, line, "id", "missing (each line needs 'id' and 'response')"))
        return
    name = field or ("response" if "response" in record else None)
    name = name or _response_field(record, RowError(file, line, None, ""), None) or "response"
    _add(out, _id_text(record["id"]), record.get(name, _MISSING), (file, line), name)


def _read_lmms(path: Path, joiner: _Joiner, out: Predictions, field: str | None) -> None:
    changed: list[str] = []
    _read_samples(path, joiner, out, changed)
    if changed:
        out.warnings.append(
            f"lmms-eval's filters changed {len(changed)} response(s) (filtered_resps differs from resps, "
            f"e.g. {changed[0]}); the filtered text is scored, as lmms-eval scores it")


def _read_samples(path: Path, joiner: _Joiner, out: Predictions, changed: list[str]) -> None:
    for file, line, record in _readable(_jsonl_records(path), out):
        filtered = filter_changed(record)
        if filtered:
            changed.append(f"{file}:{line}")
        doc = sample_item(record)
        if doc is None:
            found = record.get("doc")
            what = f"not an object: {found!r:.60}" if found is not None else "missing"
            message = f"{what}, and no metric field holds the item (an lmms-eval --log_samples line?)"
            out.errors.append(RowError(file, line, "doc", message))
            continue
        response = sample_response(record)
        item_id = _item_id(doc, joiner)
        out.log_question(item_id, doc, (file, line))
        _add(out, item_id, _MISSING if response is None else response, (file, line), "filtered_resps")
        if filtered and isinstance(item_id, str):
            out.filtered.append(item_id)


def _id_map(path: Path) -> dict[str, Any] | None:
    """Return the ``{item id: response}`` object of a ``.json`` file, or None for any other content."""
    if not path.is_file() or path.suffix.lower() != ".json":
        return None
    try:
        data = json.loads(read_text(path))
    except ValueError:  # bad JSON or bytes: read_records reports it
        return None
    if not isinstance(data, dict) or "questions" in data or not data:
        return None
    return data if all(isinstance(v, str) or v is None for v in data.values()) else None


def _read_records(
    entries: Iterable[Record | RowError], joiner: _Joiner, out: Predictions, field: str | None,
    id_fields: tuple[str, ...] = ("id",),
) -> None:
    for file, line, record in _readable(entries, out):
        name = _response_field(record, RowError(file, line, None, ""), field)
        if name is None:
            wanted = repr(field) if field else f"one of {RESPONSE_FIELDS} or '*_answer'"
            out.errors.append(RowError(file, line, field or "response", f"no response field ({wanted})"))
            continue
        item_id = _item_id(record, joiner, id_fields)
        out.log_question(item_id, record, (file, line))
        _add(out, item_id, record[name], (file, line), name)


def _read_export(path: Path, joiner: _Joiner, out: Predictions, field: str | None) -> None:
    mapping = _id_map(path) if field is None else None
    if mapping is not None:  # {"question_0000": "A", ...}
        for position, (item_id, text) in enumerate(mapping.items(), start=1):
            _add(out, str(item_id), text, (str(path), EntryIndex(position)), "response")
        return
    _read_records(read_records(path), joiner, out, field)


def _read_table(path: Path, joiner: _Joiner, out: Predictions, field: str | None) -> None:
    files = table_files(path) if path.is_dir() else [path]
    if len(files) > 1:  # e.g. a VLMEvalKit folder: predictions, per-item scores and the score table
        raise ValueError(f"{path}: {len(files)} tables ({file_names(files)}); give the prediction file "
                         "itself")
    for file in files:
        _read_records(read_table(file), joiner, out, field, id_fields=("id", "index"))
