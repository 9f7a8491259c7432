"""lmms-eval ``--log_samples`` logs: where the item and the response are in one sample line.

lmms-eval writes ``OUT/<model>/<date>_samples_<task>.jsonl``, one JSON object per sample. What real logs
hold (read from unedited 0.6.1 and 0.7.3 output, ../shared/data/lmms_eval):

* the item: ``doc`` when the task logs it; the vsibench task's logs have no ``doc`` — the item, with its
  ``id``, is the value of each metric key (``vsibench_score`` in 0.6.1; ``vsibench_overall`` and one key
  per task metric in 0.7.3), as ``process_results`` returned it;
* the task: in the file name (``<date>_samples_<task>.jsonl``); an output folder holds one log per task
  run, and ids are each task's own (0, 1, 2, ...), so a folder's log is chosen by its logged question
  text (:func:`choose_log`), never by name order;
* the response: ``filtered_resps`` — a string (0.7.3) or a one-element list (0.6.1; older logs nest a
  list in it) — is what ``process_results`` receives; ``resps`` (``[[text]]``) is dropped when it equals
  ``filtered_resps`` and is read only when ``filtered_resps`` is absent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbench.records.files import read_records, read_text
from spatialbench.records.rows import RowError

LMMS_KEYS = frozenset({"doc_id", "doc", "resps", "filtered_resps"})
"""Keys that mark an lmms-eval sample line (a plain prediction line has ``id`` and ``response``)."""


RESULTS_KEYS = frozenset({"results", "configs", "versions", "n-samples"})
"""Top-level keys of lmms-eval's aggregated ``*_results.json`` (0.6.1 and 0.7.3 alike): scores, no answers."""


def refuse_results_file(path: Path) -> None:
    """Refuse lmms-eval's aggregated results file, naming the per-sample log to give instead.

    Called once nothing could be read from ``path``, so that no other ``.json`` file is parsed twice.

    Raises:
        ValueError: ``path`` is a ``.json`` object holding every key of :data:`RESULTS_KEYS`.
    """
    if not path.is_file() or path.suffix.lower() != ".json":
        return
    try:
        data = json.loads(read_text(path))
    except ValueError:  # not JSON, or not UTF-8: the reader has reported it
        return
    if isinstance(data, dict) and RESULTS_KEYS <= set(data):
        raise ValueError(f"{path}: this is lmms-eval's aggregated results file (scores per task, "
                         "no answers); the file to give is the per-sample log lmms-eval writes beside "
                         "it with --log_samples, *_samples_<task>.jsonl")


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


CHECKED_LINES = 200
"""Question texts compared per log when choosing one (enough to tell tasks apart; a log is not re-read)."""


def task_name(file: Path) -> str:
    """Return the task in an lmms-eval log's file name (``20250101_samples_vsibench.jsonl``: ``vsibench``)."""
    return file.stem.rpartition("samples_")[2] or file.stem


@dataclass(frozen=True)
class LogCheck:
    """How many of a log's first :data:`CHECKED_LINES` logged questions are the annotations' questions."""

    file: Path
    checked: int
    agreeing: int

    @property
    def matches(self) -> bool | None:
        """True: most logged questions are the items'; False: most are not; None: no question logged."""
        return None if self.checked == 0 else 2 * self.agreeing > self.checked

    def describe(self) -> str:
        """``FILE (task T: A of N logged questions are the annotations')``."""
        found = f"{self.agreeing} of {self.checked} logged questions are the annotations'"
        return f"{self.file} (task {task_name(self.file)}: {found if self.checked else 'no question logged'})"


def _same(logged: str, expected: str | None) -> bool:
    return expected is not None and " ".join(logged.split()) == " ".join(expected.split())


def check_log(file: Path, expected: Callable[[dict[str, Any]], str | None]) -> LogCheck:
    """Compare the questions ``file`` logs with ``expected(item)``: the annotations' question of that item.

    Unreadable lines and lines without a question text are passed over (reading reports them).
    """
    checked = agreeing = 0
    for entry in read_records(file):
        doc = None if isinstance(entry, RowError) else sample_item(entry[2])
        if doc is None or not isinstance(doc.get("question"), str):
            continue
        checked += 1
        agreeing += _same(doc["question"], expected(doc))
        if checked == CHECKED_LINES:
            break
    return LogCheck(file, checked, agreeing)


def _named_for(benchmark: str, file: Path) -> bool:
    """Say whether the log's task name holds the benchmark's name (``vsibench_local`` for ``vsibench``)."""

    def bare(text: str) -> str:
        return text.lower().replace("_", "").replace("-", "")

    return bare(benchmark) in bare(task_name(file))


def choose_log(
    folder: Path, expected: Callable[[dict[str, Any]], str | None], benchmark: str | None = None
) -> tuple[Path, str]:
    """Return the one log under ``folder`` that answers the annotations, and a note naming it.

    A log answers them when most of its logged questions are their questions (:func:`check_log`). Among
    logs without question text, the one whose task name holds ``benchmark`` (``vsibench_local``), else
    the only one. Another task's log (an ``mmbench`` run beside a ``vsibench`` one, ids colliding) is
    left out and named in the note.

    Raises:
        ValueError: no log answers the annotations (each named with its task and count), or several do
            (two ``vsibench`` runs in one folder: both named; give the log itself).
    """
    checks = [check_log(file, expected) for file in sample_files(folder)]
    chosen = [c for c in checks if c.matches] or [c for c in checks if c.matches is None]
    if len(chosen) > 1 and not chosen[0].checked and benchmark is not None:  # only the task names tell
        chosen = [c for c in chosen if _named_for(benchmark, c.file)] or chosen
    if len(chosen) != 1:
        why = (
            "no lmms-eval log here holds these annotations' questions"
            if not chosen
            else (f"{len(chosen)} lmms-eval logs could hold these annotations' answers")
        )
        logs = "; ".join(c.describe() for c in (chosen or checks))
        raise ValueError(f"{folder}: {why}: {logs}; give the log to score itself")
    others = [c.describe() for c in checks if c is not chosen[0]]
    note = f"read the lmms-eval log {chosen[0].file} (task {task_name(chosen[0].file)})"
    return chosen[0].file, note + (f"; left out {'; '.join(others)}" if others else "")
