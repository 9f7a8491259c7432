"""Load MindCube from its release JSONL files or from the EASI/VLMEvalKit TSV.

The release (Hugging Face ``MLL-Lab/MindCube``, ``data.zip`` → ``data/raw/MindCube_tinybench.jsonl`` and
``data/raw/MindCube.jsonl``, images under ``data/other_all_image/...``; github mll-lab-nu/MindCube
``scripts/data_processing.py``) has one JSON object per line: ``id`` (its setting is written in it:
``around``, ``rotation``, ``among``, ``translation``; official ``get_setting_from_id``), ``question`` (the
question with its options written in, ``... A. Above B. Under``), ``images`` (paths relative to ``data/``)
and ``gt_answer`` (a letter), besides ``category``, ``type`` and ``meta_info``. The TSV (EASI's
``MindCubeBench_tiny_raw_qa.tsv`` / ``MindCubeBench_raw_qa.tsv``, read by VLMEvalKit's ``MindCubeBench``)
has ``index``, ``question``, ``answer``, ``category`` (the setting) and ``image_path`` (or base64 ``image``).

The release's prompt files (``data/prompts/general/MindCube_tinybench_<setting>.jsonl``, official
``scripts/generate_prompts.py``) are the same rows plus ``input_prompt`` (the prompt of that setting, e.g.
``plain_cgmap_out``: a cognitive map, then the answer) and, for the cognitive-map settings,
``grounded_cogmap`` (the ground-truth map, JSON text); loader option ``prompt`` (``--option
prompt=plain_cgmap_out``, one of :data:`PROMPTS`; default ``raw_qa``, the raw files) reads
``MindCube_tinybench_<prompt>.jsonl`` (``MindCube_<prompt>.jsonl`` for the full set) from the folder, its
``prompts/general`` or ``data/prompts/general``. Both fields are kept in ``metadata`` (the prompt then sends
``input_prompt``; ``spatialbench cogmap`` scores the maps against ``grounded_cogmap``). A file's image paths
are relative to ``data/``: the first folder above the file that holds its first image.

``subset="tiny"`` reads MindCube-Tiny (``MindCube_tinybench.jsonl`` / ``*tiny*.tsv``); the default reads
the full benchmark (``MindCube.jsonl`` / ``MindCubeBench_raw_qa.tsv``) — the training file is never read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

from spatialbench.benchmarks.shared.columns import Columns, check_columns, record_columns
from spatialbench.benchmarks.shared.fields import entry_object, path_list, required
from spatialbench.benchmarks.shared.ids import UniqueIds
from spatialbench.benchmarks.shared.tsv import check_suffix, image_index, read_tsv, tsv_images
from spatialbench.benchmarks.shared.tsv_kind import TsvKind
from spatialbench.records.errors import MalformedSampleError, unreadable
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.records.rows import LoadedItems

BENCHMARK_NAME = "mindcube"
SETTINGS = ("rotation", "among", "around", "translation", "other")
"""The settings of the official evaluation, ``translation`` tracked but left out of the overall."""
#: a MindCube TSV's ``category`` is the setting (VLMEvalKit's ``MindCubeBench``: ``id.split("_")[0]``)
TSV_KIND = TsvKind("MindCube", ("category",), SETTINGS[:4], "settings", lambda v: v.strip().lower())
COLUMNS = Columns(BENCHMARK_NAME, {".tsv": ("index", "question", "answer", ("image", "image_path")),
                                   ".jsonl": ("id", "question", "gt_answer")}, TSV_KIND)
_FILES = {
    "tiny": ("MindCube_tinybench.jsonl", "MindCubeBench_tiny_raw_qa.tsv"),
    "full": ("MindCube.jsonl", "MindCubeBench_raw_qa.tsv"),
}
PROMPTS = ("raw_qa", "ff_rsn", "aug_cgmap_in", "aug_cgmap_out", "plain_cgmap_out", "plain_cgmap_ffr_out",
           "aug_cgmap_ffr_out", "cgmap_in_ffr_out")
"""The official prompt settings (``src/prompt_generation/templates.py`` ``TEMPLATE_REGISTRY``)."""
_FIRST_OPTION = re.compile(r"(?:^|\s)A\.\s")
_OPTION_SPLIT = re.compile(r"(?:^|\s)([A-E])\.\s+")


def setting_of(item_id: str, category: str = "") -> str:
    """Return the setting of an item (one of ``SETTINGS``).

    The first of ``around``, ``rotation``, ``translation``, ``among`` in its id (official
    ``get_setting_from_id``, that order), else ``category`` when it names a setting, else ``other``.
    """
    lowered = item_id.lower()
    found = next((s for s in ("around", "rotation", "translation", "among") if s in lowered), None)
    if found:
        return found
    return category.strip().lower() if category.strip().lower() in SETTINGS else "other"


def options_of(question: str) -> tuple[str, ...]:
    """Return the lettered options written at the end of ``question`` (``("A. Above", "B. Under")``).

    They start at the last "A." after a space; letters must follow in order (A, B, C...); () when none.
    """
    starts = list(_FIRST_OPTION.finditer(question))
    if not starts:
        return ()
    parts = _OPTION_SPLIT.split(question[starts[-1].start() :])[1:]  # letter, text, letter, text...
    options = []
    for k, (letter, body) in enumerate(zip(parts[::2], parts[1::2], strict=True)):
        if letter != "ABCDE"[k]:
            break
        options.append(f"{letter}. {body.strip()}")
    return tuple(options)


def check_prompt(prompt: object) -> None:
    """Refuse a ``prompt`` option that is not one of :data:`PROMPTS` (ValueError naming them)."""
    if prompt not in PROMPTS:
        raise ValueError(f"prompt must be one of {', '.join(PROMPTS)}, got {prompt!r}")


def tiny_only(loaded: LoadedItems) -> LoadedItems:
    """Keep the items read from a MindCube-Tiny file (``metadata["file"]`` names one), with the row errors.

    Raises:
        ValueError: items were read, none of them from a MindCube-Tiny file.
    """
    kept = LoadedItems([i for i in loaded if "tiny" in str(i.metadata.get("file", ""))], loaded.errors)
    if loaded and not kept:
        files = sorted({str(i.metadata.get("file")) for i in loaded})
        raise ValueError(f"subset 'tiny' needs {' or '.join(_FILES['tiny'])}, not {', '.join(files)}")
    return kept


def release_file(path: Path, subset: str, prompt: str = "raw_qa") -> Path:
    """Return the file of ``subset`` (``tiny`` / ``full``) and ``prompt`` (module docstring).

    ``path`` itself when it is a file, else the subset's file in ``path``, ``path/raw`` or
    ``path/data/raw`` (``raw_qa``), or the prompt file in ``path``, ``path/prompts/general`` or
    ``path/data/prompts/general``.

    Raises:
        FileNotFoundError: no such file or folder, or no such file in the folder (naming the files looked
            for, and the other subset's file when the folder holds that one: ``--subset tiny``).
        AnnotationFileError: a file that is neither JSON Lines nor TSV.
    """
    if path.is_file():
        return check_suffix(path, (".jsonl", ".tsv"), "MindCube")
    names, folders = _looked_for(subset, prompt)
    found = _first(path, names, folders)
    if found:
        return found
    where = ", ".join(str(path / f) if f else str(path) for f in folders)
    other = "full" if subset == "tiny" else "tiny"
    instead = _first(path, *_looked_for(other, prompt))
    hint = f"; the folder holds the {other} subset's {instead}: add --subset {other}" if instead else ""
    raise FileNotFoundError(f"no MindCube file of subset {subset} ({' or '.join(names)}) in {where}{hint}")


def _looked_for(subset: str, prompt: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return the file names of ``subset`` and ``prompt`` and the folders (in the data folder) they sit in."""
    if prompt == "raw_qa":
        return _FILES[subset], ("", "raw", "data/raw")
    stem = "MindCube_tinybench" if subset == "tiny" else "MindCube"
    return (f"{stem}_{prompt}.jsonl",), ("", "prompts/general", "data/prompts/general")


def _first(path: Path, names: tuple[str, ...], folders: tuple[str, ...]) -> Path | None:
    return next((path / f / n for f in folders for n in names if (path / f / n).is_file()), None)


def load_mindcube(
    path: Path | str, subset: Literal["full", "tiny"] = "full", prompt: str = "raw_qa"
) -> LoadedItems:
    """Load MindCube (module docstring) from a release JSONL, a TSV, a prompt file or the folder holding them.

    Returns:
        Items in file order (id: the release ``id`` / TSV ``index``; task: the setting; options parsed from
        the question); ``.errors`` has one RowError per malformed line or row.

    Raises:
        FileNotFoundError: see :func:`release_file`. ValueError: ``subset`` is not ``full`` or ``tiny``,
            or ``prompt`` not one of :data:`PROMPTS`.
        AnnotationFileError (a ValueError): a file that is not JSON lines or not a table.
    """
    if subset not in _FILES:
        raise ValueError(f"subset must be one of full, tiny, got {subset!r}")
    check_prompt(prompt)
    table = release_file(Path(path).resolve(), subset, prompt)
    loaded, ids = LoadedItems(), UniqueIds()
    for number, make in _rows(table):
        try:
            item = make()
        except MalformedSampleError as error:
            loaded.errors.append(error.row_error(str(table), number))
            continue
        ids.keep(loaded, item, str(table), number, "index" if table.suffix == ".tsv" else "id")
    return tiny_only(loaded) if subset == "tiny" else loaded


def _rows(table: Path) -> Iterator[tuple[int, Any]]:
    """Yield (line or row number, a function making the item) per question of ``table``."""
    if table.suffix == ".tsv":
        frame = read_tsv(table, COLUMNS)
        by_index = image_index(frame)
        for number, row in enumerate(frame.to_dict(orient="records"), start=2):  # header is line 1
            yield number, lambda r=row: _tsv_item(r, table, by_index)
        return
    try:
        lines = table.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise unreadable(table, error) from None
    # parsed first, so a field no line has is one line naming the file (was a row error per line); a
    # line that is not JSON stays a row error of its own
    entries = [(number, _parsed(line)) for number, line in enumerate(lines, start=1) if line.strip()]
    if any(isinstance(entry, Mapping) for _, entry in entries):
        check_columns(table, record_columns(entry for _, entry in entries), COLUMNS)
    for number, entry in entries:
        yield number, lambda e=entry: _json_item(e, table)


def image_root(table: Path, first: str) -> Path:
    """Return the folder the image paths of ``table`` are relative to (module docstring).

    The first of the file's folders and those above it that holds ``first``; else the folder above
    ``raw/`` (the release's layout) or the file's own folder.
    """
    found = next((folder for folder in table.parents if (folder / first).is_file()), None)
    return found or (table.parent.parent if table.parent.name == "raw" else table.parent)


def _parsed(line: str) -> Any:
    """Return the line's JSON value, or the row error of a line that is not JSON (:func:`_json_item`'s)."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        return MalformedSampleError("", "", f"not JSON ({error.msg})")


def _json_item(parsed: Any, table: Path) -> Item:
    if isinstance(parsed, MalformedSampleError):
        raise parsed
    entry = entry_object(parsed)
    sample_id = str(entry.get("id") or "")
    required(entry, ("id", "question", "gt_answer"), sample_id)
    images = path_list(entry, "images", sample_id)
    root = image_root(table, images[0]) if images else table.parent
    media = tuple(MediaRef(kind=MediaKind.IMAGE, path=str(root / p)) for p in images)
    extra = {k: entry[k] for k in ("input_prompt", "grounded_cogmap") if isinstance(entry.get(k), str)}
    return _item(sample_id, "", entry["question"], entry["gt_answer"], media, table.name, extra)


def _tsv_item(row: Mapping[str, Any], table: Path, by_index: Mapping[str, str]) -> Item:
    sample_id = str(row.get("index") or "")
    required(row, ("question", "answer"), sample_id)
    media = tsv_images(row, table, by_index)
    return _item(sample_id, str(row.get("category", "")), row["question"], row["answer"], media, table.name,
                 fields=_KIT_FIELDS)


_RELEASE_FIELDS = ("gt_answer", "images")
_KIT_FIELDS = ("answer", "image")
"""The answer and image fields of a release line and of a TSV row (named in row errors)."""


def _item(
    sample_id: str, category: str, question: Any, answer: Any, media: tuple[MediaRef, ...], file: str,
    extra: Mapping[str, str] | None = None, fields: tuple[str, str] = _RELEASE_FIELDS,
) -> Item:
    text = str(question)
    options = options_of(text)
    letter = str(answer).strip()
    if not options:
        raise MalformedSampleError(sample_id, "question", "no lettered options (A. ... B. ...) written in it")
    if letter not in [o[0] for o in options]:
        letters = ", ".join(o[0] for o in options)
        raise MalformedSampleError(sample_id, fields[0], f"{answer!r} is not one of the question's options "
                                   f"({letters})")
    if not media:
        raise MalformedSampleError(sample_id, fields[1], "no image")
    return Item(
        id=sample_id,
        benchmark=BENCHMARK_NAME,
        task=setting_of(sample_id, category),
        question=text,
        options=options,
        ground_truth=letter,
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        media=media,
        metadata={"file": file, **(extra or {})},
    )
