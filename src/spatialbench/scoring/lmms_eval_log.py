"""lmms-eval ``--log_samples`` logs: where the item and the response are in one sample line.

lmms-eval writes ``OUT/<model>/<date>_samples_<task>.jsonl``, one JSON object per sample. What real logs
hold (read from unedited 0.6.1 and 0.7.3 output, ../shared/data/lmms_eval):

* the item: ``doc`` when the task logs it; the vsibench task's logs have no ``doc`` — the item, with its
  ``id``, is the value of each metric key (``vsibench_score`` in 0.6.1; ``vsibench_overall`` and one key
  per task metric in 0.7.3), as ``process_results`` returned it;
* the response: ``filtered_resps`` — a string (0.7.3) or a one-element list (0.6.1; older logs nest a
  list in it) — is what ``process_results`` receives; ``resps`` (``[[text]]``) is dropped when it equals
  ``filtered_resps`` and is read only when ``filtered_resps`` is absent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

LMMS_KEYS = frozenset({"doc_id", "doc", "resps", "filtered_resps"})
"""Keys that mark an lmms-eval sample line (a plain prediction line has ``id`` and ``response``)."""


def sample_files(folder: Path) -> list[Path]:
    """List the lmms-eval sample logs (``*samples_*.jsonl``) under ``folder``, recursively, sorted."""
    return sorted(folder.rglob("*samples_*.jsonl"))


def is_sample(record: dict[str, Any]) -> bool:
    """Say whether ``record`` is an lmms-eval sample line."""
    return bool(LMMS_KEYS & set(record))


def sample_item(record: dict[str, Any]) -> dict[str, Any] | None:
    """Return the item of a sample line: ``doc``, else the first metric value that holds an ``id``."""
    doc = record.get("doc")
    if isinstance(doc, dict):
        return doc
    for value in record.values():
        if isinstance(value, dict) and ("id" in value or "question" in value):
            return value
    return None


def sample_response(record: dict[str, Any]) -> object:
    """Return the response text of a sample line (``None`` when it has none; a non-string as found)."""
    filtered = record.get("filtered_resps")
    while isinstance(filtered, list) and filtered:
        filtered = filtered[0]
    if filtered is not None and filtered != []:
        return filtered
    resps = record.get("resps")
    while isinstance(resps, list) and resps:
        resps = resps[0]
    return None if resps == [] else resps


def filter_changed(record: dict[str, Any]) -> bool:
    """Say whether lmms-eval's filters changed the response (``resps`` logged and unlike ``filtered_resps``).

    lmms-eval drops ``resps`` when it equals ``filtered_resps``; 0.7.3's vsibench filter strips
    ``<think>`` blocks, so such a line keeps both.
    """
    if "resps" not in record or "filtered_resps" not in record:
        return False
    raw = {**record, "filtered_resps": None}
    return sample_response(raw) != sample_response(record)
