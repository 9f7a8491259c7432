"""How a ``judge.json`` document is shown: the report's table and bars, and the command's text (Table 2).

Report (:class:`JudgeViews`): the judges' mean score of phases (1)–(3) for answers correct and incorrect
as bars (``judge.png`` / ``.svg``), and a grid of those rows beside the paper's. Command
(:func:`summary_text`): the Table 2 layout (correct (1)–(3), incorrect (1)–(3)) for the judges' mean, each
judge and the paper's rows, then the agreement, the item counts and each judge's outcome counts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spatialbench.analysis.registry import Analysis, DrawnFigure
from spatialbench.scoring.render import Grid, Value, to_markdown

GROUPS = ("correct", "incorrect")
PHASE_KEYS = ("1", "2", "3")


def _scale(values: list[Value]) -> float:
    """Axis scale of the values: 1 for shares in [0, 1], else 100 (percent)."""
    numbers = [float(v) for v in values if isinstance(v, (int, float))]
    return 1.0 if numbers and max(numbers) <= 1.0 else 100.0


def _phases(table: dict[str, Any]) -> list[str]:
    return [k for k in PHASE_KEYS if k in table.get("correct", {})]


class JudgeViews(Analysis):
    """The report side of ``judge`` (tables and figures of a document)."""

    title = "Judged reasoning phases"

    def tables(self, doc: dict[str, Any]) -> list[Grid]:
        """One grid: this run's mean per phase, correct and incorrect, then the paper's Table 2 rows."""
        table = doc["table"]
        phases = _phases(table)
        rows: list[tuple[str, tuple[Value, ...]]] = [
            (f"this run: {g}", tuple(table[g][k]["mean"] for k in phases)) for g in GROUPS if g in table]
        for model, groups in doc.get("reference", {}).get("rows", {}).items():
            rows += [(f"{model} (Table 2): {g}", tuple(groups[g])) for g in GROUPS if g in groups]
        return [Grid(tuple(f"({k})" for k in phases), tuple(rows), "Judge scores")]

    def figures(self, doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
        """Bars of the mean judge score per phase, correct vs incorrect (``folder/judge.png``, ``.svg``)."""
        from spatialbench import charts  # matplotlib only when drawing

        table = doc["table"]
        phases = _phases(table)
        bars = [(g, [table[g][k]["mean"] for k in phases]) for g in GROUPS if g in table]
        title = f"judged reasoning phases ({len(doc['judges'])} judge(s))"
        paths = charts.grouped_bars([f"({k})" for k in phases], bars, [], title, folder / self.name,
                                    ylabel="judge score", scale=_scale([v for _, vs in bars for v in vs]))
        return [DrawnFigure("Judge scores per phase (Table 2)", tuple(paths))]


def _row(name: str, table: dict[str, Any]) -> tuple[str, tuple[Value, ...]]:
    return name, tuple(table[group][k]["mean"] for group in GROUPS for k in PHASE_KEYS)


def _number(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def first_failure(failures: list[dict[str, str]]) -> str:
    """Return ``"; first failure: item I: REASON"`` for a document's ``failures`` list, "" when empty."""
    return f"; first failure: item {failures[0]['item']}: {failures[0]['error']}" if failures else ""


def summary_text(doc: dict[str, Any]) -> str:
    """Return the Table 2 layout of a ``judge.json`` document, then agreement and counts."""
    rows = [_row(f"mean of {len(doc['judges'])} judge(s)", doc["table"]),
            *(_row(judge, part["table"]) for judge, part in doc["per_judge"].items())]
    rows += [(f"{model} (Table 2)", tuple(v for group in GROUPS for v in groups[group]))
             for model, groups in doc["reference"]["rows"].items()]
    header = ("correct (1)", "(2)", "(3)", "incorrect (1)", "(2)", "(3)")
    agreement = doc["agreement"]
    pairs = ", ".join(
        f"{p['judges'][0]} ~ {p['judges'][1]}: r = {_number(p['pearson'], 2)} ({p['units']} units)"
        for p in agreement["pairwise"]
    )
    alpha = f"Krippendorff's alpha (interval): {_number(agreement['krippendorff_alpha'], 3)}"
    lines = [
        *to_markdown(Grid(header, tuple(rows))),
        "",
        alpha + (f"; {pairs}" if pairs else ""),
        "items: " + ", ".join(f"{k} {v}" for k, v in sorted(doc["items"].items())),
        *judge_lines(doc),
    ]
    return "\n".join(lines) + "\n"


def judge_lines(doc: dict[str, Any]) -> list[str]:
    """Return one line per judge: answers valid and failed, requests sent (retries too), first failure."""
    return [
        f"{judge}: {part['valid']} valid, {part['failed']} failed, {part['requests_sent']} requests sent"
        + first_failure(part.get("failures", []))
        for judge, part in doc["per_judge"].items()
    ]
