"""Images stored inside annotation files (Parquet bytes, TSV base64) written out as files a run can read.

Official releases of image benchmarks keep the pictures in the table itself: Hugging Face Parquet files as
raw bytes, VLMEvalKit/EASI TSV files as base64 text. Items point at files (:class:`MediaRef`), so a loader
writes each image once to ``<table folder>/images/<table stem>/<name>.<ext>``, as VLMEvalKit's
``dump_image`` does under its data root, and leaves files already there untouched.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from spatialbench.records.errors import MalformedSampleError
from spatialbench.records.item import MediaKind, MediaRef

_MAGIC = ((b"\x89PNG", ".png"), (b"\xff\xd8", ".jpg"), (b"GIF8", ".gif"), (b"RIFF", ".webp"))


def image_folder(table: Path) -> Path:
    """Return the folder the images of ``table`` are written to: ``<folder>/images/<stem>``."""
    return table.parent / "images" / table.stem


def suffix_of(data: bytes) -> str:
    """Return the file suffix of encoded image bytes (``.png``, ``.jpg``...; ``.jpg`` when unknown)."""
    return next((suffix for magic, suffix in _MAGIC if data.startswith(magic)), ".jpg")


def from_base64(text: str, sample_id: str) -> bytes:
    """Decode one base64 image.

    Raises:
        MalformedSampleError: ``text`` is not base64 (field ``image``).
    """
    try:
        return base64.b64decode(text, validate=False)
    except (binascii.Error, ValueError) as error:
        raise MalformedSampleError(sample_id, "image", f"not base64 image data ({error})") from None


def write_images(images: Sequence[bytes], folder: Path, name: str) -> tuple[MediaRef, ...]:
    """Write encoded images as ``<folder>/<name>_<k><ext>`` (once) and return image references, in order.

    Raises:
        OSError: the folder cannot be written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    refs = []
    for k, data in enumerate(images):
        path = folder / f"{name}_{k}{suffix_of(data)}"
        if not path.exists():
            path.write_bytes(data)
        refs.append(MediaRef(kind=MediaKind.IMAGE, path=str(path)))
    return tuple(refs)


def table_images(images: Sequence[Any], table: Path, sample_id: str, field: str) -> tuple[MediaRef, ...]:
    """Write the images of one Parquet row beside ``table`` and return their references, in order.

    ``images``: encoded images as bytes or as ``{"bytes": ...}`` (the ``datasets`` Image feature).

    Raises:
        MalformedSampleError: a value that is not an encoded image (named by ``field``).
    """
    encoded = [i["bytes"] if isinstance(i, Mapping) else i for i in images]
    if not all(isinstance(i, bytes) for i in encoded):
        raise MalformedSampleError(sample_id, field, "not a list of encoded images")
    return write_images(encoded, image_folder(table), sample_id)


ImagesOrError = tuple[MediaRef, ...] | MalformedSampleError
"""A row's images, or the error reading them (raised later, with the row's number, by the loader)."""


def images_or_error(read: Callable[..., tuple[MediaRef, ...]], *args: Any) -> ImagesOrError:
    """Return ``read(*args)``, or the MalformedSampleError it raises (so a bad image is one row error)."""
    try:
        return read(*args)
    except MalformedSampleError as error:
        return error
