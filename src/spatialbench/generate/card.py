"""A generated benchmark as a Hugging Face dataset folder: its dataset card (``README.md``) and data files.

``datasets.load_dataset(OUT)`` reads the folder through the card's YAML header: ``configs`` with
``data_files`` (the questions, one row each), ``dataset_info.features``, ``license``, and the prose says how
the set was generated, by which spatialbench version and with which seed. For ReMindView-Bench the rows
are the questions with their frames as a list of ``Image`` features: ``metadata.jsonl`` (one question a
line, its frames as paths in ``images_file_names``) read by the ``imagefolder`` builder, so each frame is
stored once, as the PNG the generator wrote, however many questions show it. The card's ``data_files``
list the frames beside the metadata: from the file types listed ``datasets`` picks the builder (the
metadata alone would be read as plain JSON), and the rows come from the metadata only, so no frame becomes
a row of its own. A ``.jsonl`` file is no ``.csv`` / ``.parquet`` table, which the ReMindView loader would
read as a QA table.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import pyarrow as pa
import yaml

CARD_NAME = "README.md"
LICENSE = "apache-2.0"
"""The license field: generated questions and renders are spatialbench output (the package's license)."""
METADATA_NAME = "metadata.jsonl"
"""The questions of an image dataset, read by the ``imagefolder`` builder (module docstring)."""

_SCALARS = {pa.string(): "string", pa.large_string(): "string", pa.int64(): "int64", pa.int32(): "int32",
            pa.float64(): "float64", pa.float32(): "float32", pa.bool_(): "bool"}


def generator_version() -> str:
    """Return the installed spatialbench version (``unknown`` from a bare source tree)."""
    try:
        return version("spatialbench")
    except PackageNotFoundError:
        return "unknown"


def feature(dtype: pa.DataType) -> dict[str, Any] | None:
    """Return the card's feature entry (without ``name``) for an Arrow type, None for one it cannot name."""
    if dtype in _SCALARS:
        return {"dtype": _SCALARS[dtype]}
    if pa.types.is_null(dtype):
        return {"dtype": "null"}
    if pa.types.is_list(dtype) or pa.types.is_large_list(dtype):
        inner = feature(dtype.value_type)
        if inner is not None and "dtype" in inner:
            return {"list": inner["dtype"]}
    return None


def schema_features(schema: pa.Schema) -> list[dict[str, Any]]:
    """Return the features of ``schema``'s columns the card can name, in column order."""
    found = [(f.name, feature(f.type)) for f in schema]
    return [{"name": name, **entry} for name, entry in found if entry is not None]


def _value_dtype(value: Any) -> str | None:
    """Return the card's dtype of one JSON value (``bool`` before ``int``: a bool is an int), None if none."""
    for kind, dtype in ((bool, "bool"), (int, "int64"), (float, "float64"), (str, "string")):
        if isinstance(value, kind):
            return dtype
    return None


def value_features(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> list[dict[str, Any]]:
    """Return the features of ``columns`` as the rows' values are typed (a list of values: ``list``).

    A column's type is its first non-null value's (the generator writes each column one way); a column
    of nulls or of values the card cannot name is ``string``.
    """
    features = []
    for column in columns:
        value = next((row[column] for row in rows if row.get(column) is not None), None)
        if isinstance(value, list):
            features.append({"name": column, "list": _value_dtype(value[0]) if value else "string"})
        else:
            features.append({"name": column, "dtype": _value_dtype(value) or "string"})
    return features


def write_card(
    out: Path, *, pretty_name: str, data_files: Sequence[str], features: Sequence[Mapping[str, Any]],
    how: str, seed: object, rows: int,
) -> Path:
    """Write ``out/README.md``: the YAML header ``load_dataset`` reads and a few lines of prose.

    Args:
        out: the benchmark folder.
        pretty_name: its title.
        data_files: the ``test`` split's files or globs, relative to ``out`` (the questions' file first).
        features: ``dataset_info.features`` entries (``{"name", "dtype"}``, ``{"name", "list": "image"}``).
        how: one paragraph on how the set was generated.
        seed: the generator's seed (recorded as given).
        rows: the number of questions.

    Returns:
        The card's path.
    """
    header = {
        "pretty_name": pretty_name,
        "license": LICENSE,
        "task_categories": ["visual-question-answering"],
        "configs": [{"config_name": "default", "data_files": [{"split": "test", "path": list(data_files)}]}],
        "dataset_info": {"features": [dict(f) for f in features], "splits": [{"name": "test",
                                                                             "num_examples": rows}]},
    }
    body = (f"# {pretty_name}\n\n{how}\n\n- generator: spatialbench {generator_version()}\n- seed: {seed}\n"
            f"- questions: {rows} (split `test`, `{data_files[0]}`)\n\n"
            "Load it with `datasets.load_dataset(\"<this folder>\", split=\"test\")`.\n")
    path = out / CARD_NAME
    path.write_text("---\n" + yaml.safe_dump(header, sort_keys=False) + "---\n\n" + body, encoding="utf-8")
    return path


def find_seed(manifest: Mapping[str, Any]) -> object:
    """Return the first ``seed`` in a manifest (its settings nest it), None when it records none."""
    if "seed" in manifest:
        return manifest["seed"]
    for value in manifest.values():
        if isinstance(value, Mapping):
            found = find_seed(value)
            if found is not None:
                return found
    return None


def write_image_rows(out: Path, rows: Iterable[Mapping[str, Any]], columns: Sequence[str],
                     images: Iterable[Sequence[Path]]) -> Path:
    """Write ``out/metadata.jsonl``: ``columns`` of each row as its JSON value, plus its ``images``.

    Values keep their types (the card declares them, :func:`value_features`): numbers stay numbers, flags
    booleans, lists lists; anything else is written as text.

    ``images`` are the row's image files, under ``out``; a line names them by their paths relative to
    ``out`` in ``images_file_names``, which ``imagefolder`` loads as the feature ``images`` (a list of
    ``Image``). One line is written at a time, so memory holds one row, not the set.
    """
    path = out / METADATA_NAME
    with path.open("w", encoding="utf-8") as sink:
        for row, files in zip(rows, images, strict=True):
            line: dict[str, Any] = {c: _json_value(row.get(c)) for c in columns}
            line["images_file_names"] = [p.relative_to(out).as_posix() for p in files]
            sink.write(json.dumps(line, ensure_ascii=False) + "\n")
    return path


def _json_value(value: Any) -> Any:
    """Return ``value`` as a metadata line holds it: JSON scalars and lists as they are, others as text."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return [_json_value(v) for v in value] if isinstance(value, list | tuple) else str(value)
