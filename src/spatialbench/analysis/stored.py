"""What analyses read of a run beyond its scores, through :class:`~spatialbench.runs.folder.RunFolder`.

Shared by the analyses: a run's stored answers with their back-end metadata (:func:`stored_answers`: the
latest ``ok`` answer per item, of the final request or of a strategy turn such as ``cot``, ``explain`` or
``map``), a run's settings flattened for comparing (:func:`settings`), which scored items were answered
correctly (:func:`correct_items`), and writing an analysis
document only when something was scored (:func:`write_if_scored`). Documents go to
``RUN/analysis/<name>.json`` with ``analysis`` and ``version`` fields. Nothing here queries the store
itself: :mod:`spatialbench.runs.store` does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbench.analysis.registry import ANALYSIS_DIR, document_path, save_json
from spatialbench.records.item import Item
from spatialbench.runs.checks import RunFolderError
from spatialbench.runs.folder import ITEMS_NAME, RunFolder


@dataclass(frozen=True)
class StoredAnswer:
    """One item's stored answer: its ``text`` and ``raw`` back-end metadata (``{}``: none or unreadable)."""

    text: str
    raw: dict[str, Any]


def stored_answers(run: RunFolder, turn: str | None = None) -> dict[str, StoredAnswer]:
    """Return item id → its latest ``ok`` answer: the final request's, or of strategy turn ``turn``.

    Raises:
        RunFolderError: no ``run.sqlite`` or not a readable store (the message names it).
    """
    if not run.has_store:
        raise RunFolderError(f"{run.path}: no run.sqlite (is it the --out folder of spatialbench run?)")
    if turn is not None:
        return {i: StoredAnswer(str(t.response), t.raw) for i, t in run.turn_answers(turn).items()}
    return {i: StoredAnswer(row.response, row.raw) for i, row in run.answers().items()
            if row.status == "ok" and row.response is not None}


def turn_texts(run: RunFolder, turn: str) -> dict[str, str]:
    """Item id → the text of its latest ``ok`` turn ``turn``; {} when the run has no store or no such turn.

    Raises:
        RunFolderError: the store is not readable.
    """
    if not run.has_store:
        return {}
    return {i: str(t.response) for i, t in run.turn_answers(turn).items()}


def _flatten(value: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, Mapping) and value:
        for key, inner in value.items():
            yield from _flatten(inner, f"{prefix}.{key}" if prefix else str(key))
    else:
        yield prefix, json.dumps(value, sort_keys=True) if isinstance(value, list | dict) else value


SHOWN_ENTRIES = 5


def shown_setting(value: Any) -> str:
    """Return a flattened setting as a note shows it: a long list (``data.ids``) as its count and first few.

    An imported run selects every item it answered, so its ``data.ids`` holds hundreds of ids; printing
    them all in one note buries the rest (the full list stays in the run's ``config.json``).
    """
    try:
        entries = json.loads(value) if isinstance(value, str) else None
    except ValueError:
        entries = None
    if not isinstance(entries, list) or len(entries) <= SHOWN_ENTRIES:
        return repr(value)
    first = ", ".join(map(str, entries[:SHOWN_ENTRIES]))
    return f"{len(entries)} entries: {first}, …"


def settings(config: Mapping[str, Any], ignored: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Flatten a run configuration to ``{"media.frames": "uniform:32", ...}``, leaving out ``ignored`` keys.

    ``config``: the run's configuration as JSON (:attr:`RunFolder.raw_config`). A key is ignored when it
    or one of its dotted prefixes is in ``ignored``.
    """
    flat = dict(_flatten(config, ""))
    return {k: v for k, v in flat.items() if not any(k == i or k.startswith(i + ".") for i in ignored)}


def correct_items(run: RunFolder) -> dict[str, bool]:
    """Return item id → answered correctly (``items.csv`` score >= 0.5: 1 for a right choice, MRA >= 0.5).

    Raises:
        RunFolderError: a score is not a number (the message names ``items.csv``, the line and the item).
    """
    out = {}
    for line, (item, score) in enumerate(zip(run.rows["id"], run.rows["score"], strict=True), start=2):
        try:
            out[str(item)] = bool(float(score) >= 0.5)
        except (TypeError, ValueError):
            where = f"{run.path / ITEMS_NAME}: line {line} (item {item})"
            raise RunFolderError(f"{where}: score {score!r} is not a number") from None
    return out


def answered_items(
    items: list[Item], answers: dict[str, StoredAnswer], scored: dict[str, bool]
) -> tuple[list[tuple[Item, StoredAnswer]], int]:
    """Return (item, its answer) of every scored item with a stored answer, and how many scored have none.

    Items the run never selected (beyond its ``--limit``, say) are not counted.
    """
    pairs = [(item, answers[item.id]) for item in items if item.id in answers and item.id in scored]
    return pairs, sum(item.id in scored for item in items) - len(pairs)


def write_analysis(run_dir: Path, name: str, doc: dict[str, Any]) -> Path:
    """Write ``doc`` to ``run_dir/analysis/<name>.json`` atomically and return the path."""
    return save_json(document_path(run_dir, name), doc)


def write_if_scored(run_dir: Path, name: str, doc: dict[str, Any], scored: int) -> tuple[bool, str]:
    """Write ``doc`` (:func:`write_analysis`) only when ``scored`` items were scored.

    Returns (written, the line to print): with nothing scored an existing ``<name>.json`` is kept as it was.
    """
    path = run_dir / ANALYSIS_DIR / f"{name}.json"
    if scored > 0:
        return True, f"written: {write_analysis(run_dir, name, doc)}"
    kept = "; the previous one is kept" if path.exists() else ""
    return False, f"error: nothing scored, so {path} is not written{kept}"
