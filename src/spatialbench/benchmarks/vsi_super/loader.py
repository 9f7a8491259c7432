"""Load VSI-SUPER (Cambrian-S, Yang et al. 2025, arXiv 2511.04670): Recall and Count over long videos.

Layout read: the Hugging Face releases ``nyu-visionx/VSI-SUPER-Recall`` / ``-Count`` (their cards could not
be read here; the fields are those lmms-eval's ``vsisuper`` tasks read, ``lmms_eval/tasks/vsisuper/``): a
``.json`` (a list), ``.jsonl`` or ``.parquet`` table, one row per question, with ``video_path`` (relative to
the data folder), ``question``, ``answer`` (Recall: a letter; Count: a number), Recall's ``options`` (a
list, lettered or not) and the video length: Recall's ``type``, Count's ``split`` (``10mins`` ...
``240mins``; ``duration`` is read too). Count's streaming rows sit in the same table: ``split``
``10mins_streaming`` ... and ``answers``, a list of counts, one per query time; ``vsi-super-count`` leaves
them out (not row errors) and ``vsi-super-count-streaming`` reads only them (duration without
``_streaming``; ground truth the list as JSON text, scored by :mod:`.streaming`).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from spatialbench.benchmarks.shared.columns import Columns, check_columns, record_columns
from spatialbench.benchmarks.shared.ids import UniqueIds
from spatialbench.benchmarks.shared.tsv import data_files, jsonl_records
from spatialbench.records.errors import AnnotationFileError, MalformedSampleError, unreadable
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.records.rows import EntryIndex, LoadedItems

RECALL, COUNT, STREAMING = "vsi-super-recall", "vsi-super-count", "vsi-super-count-streaming"
STREAMING_SUFFIX = "_streaming"
DURATIONS = ("10mins", "30mins", "60mins", "120mins", "240mins")
SUFFIXES = (".json", ".jsonl", ".parquet")
#: every VSI-SUPER table's columns, the same for the three: its rows tell them apart (``_kind_of``)
_RELEASE = (("video_path", "video"), ("answer", "answers"))
COLUMNS = {name: Columns(name, dict.fromkeys(SUFFIXES, _RELEASE)) for name in (RECALL, COUNT, STREAMING)}


def load_recall(path: Path | str) -> LoadedItems:
    """Load VSI-SUPER-Recall rows (multiple choice) from ``path`` (a file or its folder).

    Returns:
        Items (id: ``id`` or the row number; task ``recall``; dataset: the duration); ``.errors`` per bad row.

    Raises:
        FileNotFoundError: no such file / no table in the folder. AnnotationFileError: unreadable table.
            MissingColumnError (one): a table without a video or answer column (another benchmark's).
    """
    return _load(path, RECALL)


def load_count(path: Path | str) -> LoadedItems:
    """Load VSI-SUPER-Count rows (one number each, scored by MRA) from ``path`` (a file or its folder).

    A streaming row (``answer`` a list) is a row error here: :mod:`.streaming` scores those.

    Raises:
        FileNotFoundError: no such file / no table in the folder. AnnotationFileError: unreadable table.
            MissingColumnError (one): a table without a video or answer column (another benchmark's).
    """
    return _load(path, COUNT)


def load_streaming(path: Path | str) -> LoadedItems:
    """Load VSI-SUPER-Count's streaming rows (``answers``: a count per query time) from ``path``.

    Returns:
        Items (task ``count_streaming``; ground truth: the counts as JSON text; dataset: the duration).

    Raises:
        FileNotFoundError: no such file / no table in the folder. AnnotationFileError: unreadable table.
            MissingColumnError (one): a table without a video or answer column (another benchmark's).
    """
    return _load(path, STREAMING)


def is_streaming(row: Mapping[str, Any]) -> bool:
    """Whether a Count row is a streaming one (``split`` ends ``_streaming`` or it has ``answers``)."""
    return str(row.get("split") or "").endswith(STREAMING_SUFFIX) or row.get("answers") is not None


def _load(path: Path | str, benchmark: str) -> LoadedItems:
    root = Path(path).resolve()
    tables = data_files(root, SUFFIXES, "VSI-SUPER")
    loaded, others, ids = LoadedItems(), Counter[str](), UniqueIds()
    for table in tables:
        prefix = f"{table.stem}:" if len(tables) > 1 else ""
        for number, row in _rows(table, benchmark):
            kind = _kind_of(row)
            if kind is not None and kind != benchmark:
                others[kind] += 1
                if benchmark != RECALL:  # the other Count benchmark's row (module docstring), or Recall's
                    continue
            sample_id = prefix + str(row.get("id", row.get("idx", number)))
            try:
                item = _item(sample_id, row, table.parent, benchmark)
            except MalformedSampleError as error:
                loaded.errors.append(error.row_error(str(table), number))
                continue
            field = "idx" if "id" not in row and "idx" in row else "id"
            ids.keep(loaded, item, str(table), number, field, sample_id[len(prefix):])
    if others and not loaded and len(loaded.errors) == (others.total() if benchmark == RECALL else 0):
        raise _none_of(root, benchmark, others)  # every row is another VSI-SUPER benchmark's
    return loaded


def _kind_of(row: Mapping[str, Any]) -> str | None:
    """Name the benchmark a row belongs to: a streaming count, a Recall question (options) or a count.

    None for a row without a video (no VSI-SUPER row: it is read, and refused, as the benchmark's own).
    """
    if not (row.get("video_path") or row.get("video")):
        return None
    return STREAMING if is_streaming(row) else RECALL if row.get("options") is not None else COUNT


def _none_of(root: Path, benchmark: str, others: Counter[str]) -> AnnotationFileError:
    """Return the error for data holding only other VSI-SUPER benchmarks' rows (``others``: their counts)."""
    wanted = {STREAMING: "streaming-count rows (split *_streaming, answers: a count per query time)",
              COUNT: "single-count rows (answer: one number)", RECALL: "Recall rows (options and a letter)"}

    held = ", ".join(f"{n} {name} row(s)" for name, n in others.most_common())
    other = others.most_common(1)[0][0]
    return AnnotationFileError(root, f"no {wanted[benchmark]}: it holds {held}; use --benchmark {other}")


def _rows(table: Path, benchmark: str) -> Iterator[tuple[int, dict[str, Any]]]:
    if table.suffix == ".jsonl":
        records = jsonl_records(table, "VSI-SUPER")
    else:
        try:
            if table.suffix == ".parquet":
                records = pd.read_parquet(table).to_dict(orient="records")
            else:
                records = json.loads(table.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise unreadable(table, error) from None
    if not isinstance(records, list):
        raise unreadable(table, ValueError("not a list of rows"))
    check_columns(table, record_columns(records), COLUMNS[benchmark])  # another benchmark's file: one line
    rows = (r if isinstance(r, dict) else {} for r in records)
    for k, row in enumerate(rows, start=1):  # a JSON list's rows are printed "entry N"
        yield (EntryIndex(k) if table.suffix == ".json" else k), row


def _duration(sample_id: str, row: Mapping[str, Any]) -> str:
    value = str(row.get("split") or row.get("type") or row.get("duration") or "").strip()
    if not value:
        raise MalformedSampleError(sample_id, "split", "no video duration (split / type / duration)")
    return value.removesuffix(STREAMING_SUFFIX)


def _item(sample_id: str, row: Mapping[str, Any], root: Path, benchmark: str) -> Item:
    video = str(row.get("video_path") or row.get("video") or "")
    if not video:
        raise MalformedSampleError(sample_id, "video_path", "missing")
    common: dict[str, Any] = {
        "id": sample_id, "benchmark": benchmark, "question": str(row.get("question") or "").strip(),
        "media": (MediaRef(kind=MediaKind.VIDEO, path=str(root / video)),),
        "dataset": _duration(sample_id, row), "scene_id": Path(video).stem,
    }
    if benchmark == RECALL:
        options = lettered(row.get("options"), sample_id)
        answer = str(row.get("answer") or "").strip().strip("().").upper()
        if len(answer) != 1 or not "A" <= answer < chr(65 + len(options)):
            raise MalformedSampleError(sample_id, "answer", f"{row.get('answer')!r} is not an option")
        lines = [str(o) for o in row["options"]]  # as lmms-eval's doc_to_text writes them
        return Item(task="recall", options=options, ground_truth=answer,
                    answer_kind=AnswerKind.MULTIPLE_CHOICE, metadata={"option_lines": lines}, **common)
    if benchmark == STREAMING:
        return Item(task="count_streaming", ground_truth=_counts(sample_id, row.get("answers")),
                    answer_kind=AnswerKind.NUMERICAL, **common)
    return Item(task="count", ground_truth=_count(sample_id, row.get("answer")),
                answer_kind=AnswerKind.NUMERICAL, **common)


def _counts(sample_id: str, value: Any) -> str:
    """Return the expected counts as JSON text (``[3, 5, 8, 12]``): a non-empty list of positive counts."""
    if not isinstance(value, list | tuple | np.ndarray) or not len(value):
        raise MalformedSampleError(sample_id, "answers", f"{value!r} is not a list of counts")
    return json.dumps([json.loads(_count(sample_id, v)) for v in value])


def _count(sample_id: str, value: Any) -> str:
    if isinstance(value, list | tuple | np.ndarray):
        raise MalformedSampleError(sample_id, "answer", "a list of counts (streaming count)")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise MalformedSampleError(sample_id, "answer", f"{value!r} is not a number") from None
    if not math.isfinite(number) or number <= 0:
        raise MalformedSampleError(sample_id, "answer", f"{value!r} is not a positive count")
    return str(value)


def lettered(options: Any, sample_id: str) -> tuple[str, ...]:
    """Return options as ``"A. text"`` (kept as they are when the release letters them already)."""
    if options is None or isinstance(options, str) or not len(options):
        raise MalformedSampleError(sample_id, "options", "missing or not a list")
    texts = [str(o).strip() for o in options]
    if all(len(t) > 2 and t[0] == chr(65 + k) and t[1] in ".:)" for k, t in enumerate(texts)):
        return tuple(f"{t[0]}. {t[2:].strip()}" for t in texts)
    return tuple(f"{chr(65 + k)}. {t}" for k, t in enumerate(texts))
