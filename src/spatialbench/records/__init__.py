"""The records every stage passes on (DESIGN.md layer 0); this package imports nothing else of spatialbench.

- ``item``: :class:`Item`, :class:`MediaRef` and their kinds (``AnswerKind``, ``MediaKind``);
- ``rows``: :class:`LoadedItems`, :class:`RowError`, :class:`EntryIndex` (what a loader returns);
- ``errors``: :class:`MalformedSampleError`, :class:`AnnotationFileError` (bad annotation files);
- ``files``: reading question records from JSONL / Parquet / JSON files;
- ``messages``: what back ends exchange (text and image parts, requests, settings, responses);
- ``redaction``: masking secret values in any text that is written.
"""

from spatialbench.records.errors import AnnotationFileError, MalformedSampleError, unreadable
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.records.messages import (
    GenerationSettings,
    ImagePart,
    Part,
    Request,
    Response,
    TextPart,
    TokenLogprob,
)
from spatialbench.records.rows import EntryIndex, LoadedItems, RowError

__all__ = [
    "AnnotationFileError",
    "AnswerKind",
    "EntryIndex",
    "GenerationSettings",
    "ImagePart",
    "Item",
    "LoadedItems",
    "MalformedSampleError",
    "MediaKind",
    "MediaRef",
    "Part",
    "Request",
    "Response",
    "RowError",
    "TextPart",
    "TokenLogprob",
    "unreadable",
]
