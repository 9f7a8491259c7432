"""Error taxonomy, part 2: read annotation files and aggregate them (``spatialbench errors table``).

Per task (and over all tasks), each annotated error with ``n`` distinct categories adds ``1/n`` to each
(VSI-Bench App. B.2; Fig. 8; MMSI-Video-Bench Fig. 7); a category's share is its sum over the
annotated errors of the column, in percent. A taxonomy's groups (VSI-Bench: spatial reasoning =
relational reasoning + egocentric-allocentric transformation, Sec. 5.1 "around 71%") are the sums of
their members. Items with an empty ``errors`` list are counted as not annotated.

``errors_table.json`` (``analysis`` ``error-table``, ``schema`` ``spatialbench.error-table``, ``version``
1): ``taxonomy``, ``sources`` (annotation files), ``tasks`` (columns; ``all`` last), ``annotated`` and
``not_annotated`` per column, ``counts`` and ``shares`` as ``{category or group key: {column: value}}``.
Its table is the shares per category and group with the annotated count; its figure the categories'
shares stacked per task (Fig. 8).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from spatialbench import charts
from spatialbench.analysis.errors import SCHEMA, VERSION, AnnotationError, taxonomy
from spatialbench.analysis.registry import ANALYSIS_DIR, Analysis, AnalysisDocument, DrawnFigure
from spatialbench.runs.folder import RunFolder
from spatialbench.scoring.render import Grid, Value

NAME = "error-table"
FILE = "errors_table"
TABLE_SCHEMA = "spatialbench.error-table"
ALL = "all"


def _fail(path: Path, where: str, message: str) -> AnnotationError:
    return AnnotationError(f"{path}: {where}: {message}")


def _check_item(
    path: Path, index: int, item: Any, keys: set[str], seen: set[str], single: bool = False
) -> None:
    where = f"items[{index}]"
    if (
        not isinstance(item, dict)
        or not isinstance(item.get("id"), str)
        or not isinstance(item.get("task"), str)
    ):
        raise _fail(path, where, "each item needs text fields 'id' and 'task'")
    where = f"item {item['id']!r}"
    if item["id"] in seen:
        raise _fail(path, where, "the id appears twice")
    seen.add(item["id"])
    errors = item.get("errors", [])
    if not isinstance(errors, list) or not all(isinstance(e, str) for e in errors):
        raise _fail(path, f"{where} field 'errors'", f"expected a list of category keys, got {errors!r}")
    unknown = [e for e in errors if e not in keys]
    if unknown:
        raise _fail(
            path,
            f"{where} field 'errors'",
            f"unknown categor{'y' if len(unknown) == 1 else 'ies'} "
            f"{', '.join(map(repr, unknown))}; known: {', '.join(sorted(keys))}",
        )
    if single and len(set(errors)) > 1:
        raise _fail(path, f"{where} field 'errors'", f"{errors!r}: this taxonomy's categories do not "
                    "overlap (MMSI-Video-Bench Sec. 6.1): give one category per error")
    twice = sorted({e for e in errors if errors.count(e) > 1})
    if twice:
        raise _fail(path, f"{where} field 'errors'", f"category {twice[0]!r} listed twice (list each once)")


def read_annotations(path: Path | str) -> dict[str, Any]:
    """Read and check an annotation file (schema in :mod:`spatialbench.analysis.errors`).

    Raises:
        AnnotationError: not JSON, another schema or version, unknown taxonomy, an item without ``id`` /
            ``task``, a repeated id, an ``errors`` entry that is not a category key of the taxonomy or a
            category listed twice for one item (the message names the file, the item, the field and key).
        OSError: the file cannot be read.
    """
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise AnnotationError(f"{path}: not a JSON annotation file ({exc})") from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA or doc.get("version") != VERSION:
        raise AnnotationError(f"{path}: not a {SCHEMA} version {VERSION} file")
    try:
        spec = taxonomy(str(doc.get("taxonomy")))
        keys = {c["key"] for c in spec["categories"]}
    except KeyError as exc:
        raise _fail(path, "field 'taxonomy'", str(exc.args[0])) from None
    if not isinstance(doc.get("items"), list):
        raise _fail(path, "field 'items'", "expected a list")
    seen: set[str] = set()
    for index, item in enumerate(doc["items"]):
        _check_item(path, index, item, keys, seen, bool(spec.get("single_cause")))
    return doc


@dataclass(frozen=True)
class ErrorTable:
    """Error shares per task: ``counts`` / ``shares`` map a category or group key to ``{column: value}``."""

    taxonomy: str
    sources: tuple[str, ...]
    columns: tuple[str, ...]
    annotated: dict[str, int]
    not_annotated: dict[str, int]
    counts: dict[str, dict[str, float]]

    @property
    def shares(self) -> dict[str, dict[str, float | None]]:
        """Percent of a column's annotated errors (None for a column without any)."""
        return {
            key: {c: (100.0 * v / self.annotated[c] if self.annotated[c] else None) for c, v in row.items()}
            for key, row in self.counts.items()
        }

    def to_json(self) -> dict[str, Any]:
        """Return the versioned ``errors_table.json`` document (module docstring)."""
        return {
            "analysis": NAME,
            "version": 1,
            "schema": TABLE_SCHEMA,
            "taxonomy": self.taxonomy,
            "sources": list(self.sources),
            "tasks": list(self.columns),
            "annotated": self.annotated,
            "not_annotated": self.not_annotated,
            "counts": self.counts,
            "shares": self.shares,
        }

def error_table(docs: Sequence[tuple[str, dict[str, Any]]]) -> ErrorTable:
    """Aggregate checked annotation documents ``(source, document)`` of one taxonomy (module docstring).

    Raises:
        AnnotationError: no document, documents of different taxonomies or benchmarks, or one item of a
            run in two documents (it would count twice).
    """
    names = sorted({str(doc["taxonomy"]) for _, doc in docs})
    if len(names) != 1:
        raise AnnotationError(f"annotation files must share one taxonomy, got {names or 'none'}")
    _check_one_benchmark(docs)
    _check_counted_once(docs)
    spec = taxonomy(names[0])
    items = [item for _, doc in docs for item in doc["items"]]
    column_of = spec.get("columns") or {}  # task → its column group (MMSI: main categories, Fig. 7)

    def column(item: dict[str, Any]) -> str:
        return str(item.get("category") or column_of.get(str(item["task"]), item["task"]))

    groups = [g for g in dict.fromkeys(column_of.values())]
    present = dict.fromkeys(column(i) for i in items)
    columns = (*[g for g in groups if g in present], *[c for c in present if c not in groups], ALL)
    counts = {c["key"]: dict.fromkeys(columns, 0.0) for c in spec["categories"]}
    annotated, not_annotated = dict.fromkeys(columns, 0), dict.fromkeys(columns, 0)
    for item in items:
        causes = sorted(set(item.get("errors", [])))
        for key in (column(item), ALL):
            (annotated if causes else not_annotated)[key] += 1
            for cause in causes:
                counts[cause][key] += 1.0 / len(causes)
    for group in spec.get("groups", []):
        counts[group["key"]] = {c: sum(counts[m][c] for m in group["members"]) for c in columns}
    return ErrorTable(names[0], tuple(s for s, _ in docs), columns, annotated, not_annotated, counts)


def _check_one_benchmark(docs: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """Refuse files of two benchmarks: under one taxonomy (a fallback shared) their tasks would mix."""
    first_source, first = docs[0]
    for source, doc in docs[1:]:
        if doc.get("benchmark") != first.get("benchmark"):
            raise AnnotationError(f"{first_source} annotates {first.get('benchmark')}, {source} "
                                  f"{doc.get('benchmark')}: make one table per benchmark")


def _check_counted_once(docs: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """Refuse a file given twice, or an item of a run annotated in two files (a copy): counted twice."""
    given: set[Path] = set()
    for source, _ in docs:
        if Path(source).resolve() in given:
            raise AnnotationError(f"{source} is given twice: each of its errors would count twice "
                                  "(give it once)")
        given.add(Path(source).resolve())
    seen: dict[tuple[str, str], str] = {}
    for source, doc in docs:
        run = str(doc.get("run"))
        for item in doc["items"]:
            earlier = seen.setdefault((run, str(item["id"])), source)
            if earlier != source:
                raise AnnotationError(f"{earlier} and {source} both annotate item {item['id']} of run "
                                      f"{run}: it would count twice (give one of them)")


def table_document(files: Sequence[Path]) -> AnalysisDocument:
    """Read and aggregate annotation files (:func:`read_annotations`, :func:`error_table`) into a document.

    Raises:
        AnnotationError: a malformed file, or files of different taxonomies. OSError: unreadable.
    """
    table = error_table([(str(f), read_annotations(f)) for f in files])
    return AnalysisDocument.model_validate(table.to_json())


class TableParams(BaseModel):
    """Parameters of ``error-table``: the annotation files (default: the run's ``analysis/errors.json``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    files: tuple[Path, ...] = ()


class ErrorTableAnalysis(Analysis):
    """``error-table``: annotated errors per task, a multi-cause error counting 1/n to each (App. B.2)."""

    name: ClassVar[str] = NAME
    description: ClassVar[str] = "shares of the annotated error types per task (VSI-Bench Fig. 8)"
    title: ClassVar[str] = "Error taxonomy"
    version: ClassVar[int] = 1
    file: ClassVar[str] = FILE
    Params: ClassVar[type[BaseModel]] = TableParams

    def compute(self, run: RunFolder, params: BaseModel) -> AnalysisDocument:
        """Aggregate ``params.files``, else ``RUN/analysis/errors.json`` (:func:`table_document`)."""
        assert isinstance(params, TableParams)
        return table_document(params.files or (run.path / ANALYSIS_DIR / "errors.json",))

    def tables(self, doc: dict[str, Any]) -> list[Grid]:
        """Shares in percent, one row per category and group, then the annotated count per column."""
        spec, tasks = taxonomy(str(doc["taxonomy"])), list(doc["tasks"])
        parts = [*spec["categories"], *spec.get("groups", [])]
        rows: list[tuple[str, tuple[Value, ...]]] = [
            (p["label"], tuple(doc["shares"][p["key"]].get(t) for t in tasks)) for p in parts]
        rows.append(("annotated errors", tuple(doc["annotated"].get(t) for t in tasks)))
        return [Grid(tuple(tasks), tuple(rows), "Error types (%)")]

    def figures(self, doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
        """Draw the categories' shares stacked per task (groups such as spatial reasoning left out)."""
        spec, tasks, shares = taxonomy(str(doc["taxonomy"])), list(doc["tasks"]), doc["shares"]
        stacks = [(c["label"], [shares.get(c["key"], {}).get(t) for t in tasks]) for c in spec["categories"]]
        paths = charts.stacked_bars(tasks, stacks, f"error types ({doc['taxonomy']})", folder / "error-types")
        return [DrawnFigure("Error types per task (Fig. 8)", tuple(paths))]


ANALYSIS = ErrorTableAnalysis()
