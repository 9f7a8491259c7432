r"""Load ViewSpatial-Bench's ``ViewSpatial-Bench.json`` (the release's evaluation file) into items.

Each entry (github ZJU-REAL/ViewSpatial-Bench ``eval/ViewSpatial-Bench.json``, the Hugging Face release
``lidingm/ViewSpatial-Bench``): ``question_type`` (``"Camera perspective - Relative Direction"``, ``"Person
perspective - ..."``), ``image_path`` (a list of paths relative to the data folder), ``question``,
``answer`` (``"A. right"``) and ``choices`` (``"A. right\nB. front-up\n..."``). A VLMEvalKit-style TSV
(``index``, ``image``, ``question``, ``A``..., ``answer``, ``category``) is read by the shared TSV reader.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.shared.columns import Columns
from spatialbench.benchmarks.shared.fields import entry_object, path_list, required
from spatialbench.benchmarks.shared.ids import UniqueIds
from spatialbench.benchmarks.shared.tsv import (
    data_files,
    image_index,
    json_records,
    option_columns,
    read_tsv,
    tsv_images,
)
from spatialbench.benchmarks.shared.tsv_kind import TsvKind
from spatialbench.records.errors import MalformedSampleError
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.records.rows import EntryIndex, LoadedItems

BENCHMARK_NAME = "viewspatial"
#: a ViewSpatial-Bench question type starts with its perspective (``Camera perspective - Relative Direction``)
TSV_KIND = TsvKind("ViewSpatial-Bench", ("category",), ("Camera perspective", "Person perspective"),
                   "perspectives", lambda v: v.split(" - ")[0].strip())
COLUMNS = Columns(BENCHMARK_NAME, {
    ".json": ("question_type", "question", "answer", "choices", "image_path"),
    ".tsv": ("index", "category", "question", "A", "B", "answer", ("image", "image_path")),
}, TSV_KIND)


def load_viewspatial(path: Path | str) -> LoadedItems:
    """Load ``ViewSpatial-Bench.json`` (or a ``.tsv``, or the folder holding one).

    Returns:
        Items (id: the entry's position; task: ``question_type``; metadata ``perspective``: camera/person);
        ``.errors`` names each malformed entry. Image paths resolve against the file's folder.

    Raises:
        FileNotFoundError: no such file. AnnotationFileError: not JSON / not a table.
    """
    table = data_files(Path(path).resolve(), (".json", ".tsv"), "ViewSpatial-Bench")[0]
    loaded, ids = LoadedItems(), UniqueIds()
    if table.suffix == ".tsv":
        frame = read_tsv(table, COLUMNS)
        by_index = image_index(frame)
        for number, row in enumerate(frame.to_dict(orient="records"), start=2):
            _add((loaded, ids), lambda r=row: _tsv_item(r, table, by_index), table, number)
        return loaded
    for k, entry in enumerate(json_records(table, COLUMNS)):
        make = lambda e=entry, i=k: _json_item(e, str(i), table.parent)  # noqa: E731
        _add((loaded, ids), make, table, EntryIndex(k + 1))
    return loaded


def _add(into: tuple[LoadedItems, UniqueIds], make: Any, table: Path, line: int) -> None:
    loaded, ids = into
    try:
        item = make()
    except MalformedSampleError as error:
        loaded.errors.append(error.row_error(str(table), line))
        return
    ids.keep(loaded, item, str(table), line, "index")


def _json_item(entry: Any, sample_id: str, root: Path) -> Item:
    entry = entry_object(entry, sample_id)
    required(entry, ("question_type", "question", "answer", "choices"), sample_id)
    options = tuple(line.strip() for line in str(entry["choices"]).split("\n") if line.strip())
    paths = path_list(entry, "image_path", sample_id)
    media = tuple(MediaRef(kind=MediaKind.IMAGE, path=str(root / p)) for p in paths)
    fields = ("question_type", "choices", "image_path")
    kind, question, answer = entry["question_type"], entry["question"], entry["answer"]
    return _item(sample_id, kind, question, options, answer, media, fields)


def _tsv_item(row: Mapping[str, Any], table: Path, by_index: Mapping[str, str]) -> Item:
    sample_id = str(row.get("index") or "")
    required(row, ("category", "question", "answer"), sample_id)
    media = tsv_images(row, table, by_index)
    fields = ("category", "A", "image")
    options = option_columns(row)
    return _item(sample_id, row["category"], row["question"], options, row["answer"], media, fields)


def _item(sample_id: str, kind: Any, question: Any, options: tuple[str, ...], answer: Any,
          media: tuple[MediaRef, ...], fields: tuple[str, str, str]) -> Item:
    """``fields``: the names of the type, options and image fields in this file (for row errors)."""
    if len(options) < 2:
        reason = f"{len(options)} option(s); a question has two or more"
        raise MalformedSampleError(sample_id, fields[1], reason)
    letter = str(answer).strip()[:1].upper()
    if letter not in "ABCD" or not letter or ord(letter) - 65 >= len(options):
        raise MalformedSampleError(sample_id, "answer", f"{answer!r} is not one of the options")
    if not media:
        raise MalformedSampleError(sample_id, fields[2], "no image")
    kind = str(kind)
    return Item(
        id=sample_id,
        benchmark=BENCHMARK_NAME,
        task=kind,
        question=str(question),
        options=options,
        ground_truth=letter,
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        media=media,
        metadata={"perspective": kind.split(" - ")[0].strip()},
    )
