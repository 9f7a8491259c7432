"""Load MMSI-Video-Bench's official ``mmsivideo.json`` into :class:`~spatialbench.records.item.Item`.

The folder a user downloads from Hugging Face (``rbler/MMSI-Video-Bench``) and the official GitHub
repository (``meta_data/``)::

    DIR/
      mmsivideo.json      # list of samples (fields: :mod:`~spatialbench.benchmarks.mmsi_video.format`)
      frames/             # annotation frames, named {mm:ss.ff}_frame_{base_interval}_{index}.jpg
      ref_images/         # reference images of the <image> placeholders
      meta_data/          # sub-benchmark id lists (robot, indoor perception, grounding, easy2hard)
      videos/             # optional; not needed (both settings sample from frames/)

A malformed sample is skipped and reported in ``LoadedItems.errors``, naming its id and field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.mmsi_video.format import ANNOTATION_FILE, sample_to_item
from spatialbench.benchmarks.mmsi_video.frames import apply_setting, frame_budget
from spatialbench.benchmarks.shared.ids import UniqueIds
from spatialbench.records.errors import MalformedSampleError, unreadable
from spatialbench.records.files import NotUtf8Error, read_text
from spatialbench.records.rows import EntryIndex, LoadedItems


def load_mmsi_video(data_dir: Path | str, setting: str | None = None) -> LoadedItems:
    """Load every sample of ``DIR/mmsivideo.json``; malformed samples are reported, not raised.

    Args:
        data_dir: the downloaded folder (layout in the module docstring), or its ``mmsivideo.json``.
        setting: ``uniform-50`` or ``sufficient-coverage`` (Sec. 4.1) to cut each item's frame lists to the
            frames that setting shows (:func:`~spatialbench.benchmarks.mmsi_video.frames.apply_setting`; a run
            then samples them with strategy ``all``); None keeps every annotation frame.

    Returns:
        The items in file order (media paths absolute); ``.errors`` holds one RowError per skipped sample,
        naming the file, the field and the sample id.

    Raises:
        FileNotFoundError: ``mmsivideo.json`` is missing.
        ValueError: the file is not a list of objects; an unknown setting. AnnotationFileError (a
            ValueError): the file is not UTF-8, empty or not JSON (one line naming file and line).
    """
    if setting is not None:
        frame_budget(setting)  # an unknown setting fails before any file is read
    root = Path(data_dir).resolve()
    if root.is_file():
        root = root.parent
    annotations = root / ANNOTATION_FILE
    loaded, ids = LoadedItems(), UniqueIds()
    for index, sample in enumerate(_read_annotations(annotations)):
        try:
            item = sample_to_item(sample, root, index)
            item = apply_setting(item, setting) if setting is not None else item
        except MalformedSampleError as error:
            loaded.errors.append(error.row_error(str(annotations)))
            continue
        ids.keep(loaded, item, str(annotations), EntryIndex(index + 1))
    return loaded


def _read_annotations(path: Path) -> list[Any]:
    if not path.is_file():
        raise FileNotFoundError(f"MMSI-Video-Bench annotation file not found: {path}")
    try:
        data = json.loads(read_text(path))  # a byte-order mark is dropped
    except NotUtf8Error as error:  # the annotation-file wording, naming the line of the first bad byte
        raise unreadable(path, error.decode_error or error) from None
    except (ValueError, OSError) as error:  # not UTF-8, empty or truncated JSON: one line naming the file
        raise unreadable(path, error) from None
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a list of samples, got {type(data).__name__}")
    return data
