"""A generated benchmark as a Hugging Face dataset folder: its dataset card (``README.md``) and data files.

``datasets.load_dataset(OUT)`` reads the folder through the card's YAML header: ``configs`` with
``data_files`` (the questions, one row each), ``dataset_info.features``, ``license``, and the prose says how
the set was generated, by which spatialbench version and with which seed. For ReMindView-Bench the rows
are the questions with their frames as a list of ``Image`` features (``hf/test.arrow``: an Arrow stream,
not a ``.parquet`` file, which the ReMindView loader would read as a QA table).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from itertools import islice
from pathlib import Path
from typing import Any

import pyarrow as pa
import yaml

CARD_NAME = "README.md"
LICENSE = "apache-2.0"
"""The license field: generated questions and renders are spatialbench output (the package's license)."""
ARROW_NAME = "hf/test.arrow"
#: rows per record batch of ``write_image_rows`` (bounds the image bytes held in memory)
BATCH_ROWS = 64

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


def write_card(
    out: Path, *, pretty_name: str, data_file: str, features: Sequence[Mapping[str, Any]], how: str,
    seed: object, rows: int,
) -> Path:
    """Write ``out/README.md``: the YAML header ``load_dataset`` reads and a few lines of prose.

    Args:
        out: the benchmark folder.
        pretty_name: its title.
        data_file: the questions' file, relative to ``out`` (the ``test`` split).
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
        "configs": [{"config_name": "default", "data_files": [{"split": "test", "path": data_file}]}],
        "dataset_info": {"features": [dict(f) for f in features], "splits": [{"name": "test",
                                                                             "num_examples": rows}]},
    }
    body = (f"# {pretty_name}\n\n{how}\n\n- generator: spatialbench {generator_version()}\n- seed: {seed}\n"
            f"- questions: {rows} (split `test`, `{data_file}`)\n\n"
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
    """Write ``out/hf/test.arrow``: ``columns`` of each row as text, plus ``images`` (PNG bytes, path).

    Image paths are relative to ``out``; the bytes are embedded, so the rows load without the folder. Rows
    go out in record batches of ``BATCH_ROWS``, so memory holds one batch's images, not the whole set's.
    """
    image = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    schema = pa.schema([*(pa.field(c, pa.string()) for c in columns), pa.field("images", pa.list_(image))])
    path = out / ARROW_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    pairs = zip(rows, images, strict=True)
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_stream(sink, schema) as writer:
        while batch := list(islice(pairs, BATCH_ROWS)):
            table: dict[str, list[Any]] = {
                c: [None if r.get(c) is None else str(r[c]) for r, _ in batch] for c in columns
            }
            table["images"] = [
                [{"bytes": p.read_bytes(), "path": p.relative_to(out).as_posix()} for p in frames]
                for _, frames in batch
            ]
            writer.write_batch(pa.record_batch(table, schema=schema))
    return path
