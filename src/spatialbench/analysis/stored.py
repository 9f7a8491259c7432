"""A run's stored answers with their back-end metadata, and which scored items were answered correctly.

Shared by the phase analyses (judge, consistency, entropy, probes; ReMindView-Bench Sec. 5–6). Answers are
the latest ``ok`` row per item of ``run.sqlite`` (read-only): the ``results`` row, or with ``turn`` the
strategy turn of that name (``cot``, ``answer``: the turn holding a chain-of-thought run's reasoning).
Analysis documents go to ``RUN/analysis/<name>.json`` with ``analysis`` and ``version`` fields.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbench.analysis.run_folder import STORE_FILE, RunFolder, RunFolderError
from spatialbench.records.item import Item

ANALYSIS_DIR = "analysis"


@dataclass(frozen=True)
class StoredAnswer:
    """One item's stored answer: its ``text`` and ``raw`` metadata (``{}`` when none or unreadable)."""

    text: str
    raw: dict[str, Any]


def _raw(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def stored_answers(run_dir: Path, turn: str | None = None) -> dict[str, StoredAnswer]:
    """Return item id → latest ``ok`` answer (of turn ``turn`` when given).

    Raises:
        RunFolderError: no ``run.sqlite`` or not a readable store (the message names it).
    """
    import sqlite3

    path = run_dir / STORE_FILE
    if not path.is_file():
        raise RunFolderError(f"{run_dir}: no {STORE_FILE} (is it the --out folder of spatialbench run?)")
    table, where = ("results", "") if turn is None else ("turns", " AND turn = ?")
    query = f"SELECT item_id, response, raw FROM {table} WHERE status = 'ok'{where} ORDER BY finished_at"
    args = () if turn is None else (turn,)
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            rows = conn.execute(query, args).fetchall()
    except sqlite3.Error as exc:
        raise RunFolderError(f"{path}: not a readable run store ({exc})") from None
    return {str(i): StoredAnswer(str(text), _raw(raw)) for i, text, raw in rows if text is not None}


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
            where = f"{run.path / 'items.csv'}: line {line} (item {item})"
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
    folder = run_dir / ANALYSIS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    part.replace(path)
    return path


def write_if_scored(run_dir: Path, name: str, doc: dict[str, Any], scored: int) -> tuple[bool, str]:
    """Write ``doc`` (:func:`write_analysis`) only when ``scored`` items were scored.

    Returns (written, the line to print): with nothing scored an existing ``<name>.json`` is kept as it was.
    """
    path = run_dir / ANALYSIS_DIR / f"{name}.json"
    if scored > 0:
        return True, f"written: {write_analysis(run_dir, name, doc)}"
    kept = "; the previous one is kept" if path.exists() else ""
    return False, f"error: nothing scored, so {path} is not written{kept}"
