"""Analyses in the report: every analysis document found beside the report's runs, drawn by its analysis.

Looked for: every ``RUN/analysis/*.json`` of the report's runs and a ``sweep.json`` or ``profile.json`` in a
run's parent folder (``spatialbench sweep`` puts its runs in ``OUT/<setting>-<value>``, ``spatialbench
profile`` in ``OUT/<setting>``). A file is an analysis document
when it carries an ``analysis`` name (other JSON there, such as the annotation file ``errors.json``, is
left out). A document is drawn by the registered analysis of that name
(:data:`~spatialbench.analysis.registry.ANALYSES`) when its ``version`` is the analysis's: its
:meth:`~spatialbench.analysis.registry.Analysis.tables` (shown through the one table renderer) and its
:meth:`~spatialbench.analysis.registry.Analysis.figures`, drawn into ``figures/analysis-<k>-<file>/``.
A document of an analysis that is not registered, of another version, or that cannot be read or drawn is
listed with the reason instead; a registered one with nothing to show is left out. Nothing here names an
analysis: a new one is drawn once it is registered.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spatialbench.analysis.answerability import accuracy_by_answerability, answerability_grid
from spatialbench.analysis.registry import ANALYSES, ANALYSIS_DIR
from spatialbench.analysis.registry import Analysis as Part
from spatialbench.registry import UnknownNameError
from spatialbench.report.plots import Figure, figure_of, slug
from spatialbench.report.runs import RunData
from spatialbench.scoring.render import Grid

#: documents of studies whose runs are the folders beside them (``sweep``, ``profile``)
STUDY_FILES = ("sweep.json", "profile.json")
DRAW_ERRORS = (ValueError, KeyError, TypeError, AttributeError, IndexError, OSError)


@dataclass(frozen=True)
class Analysis:
    """One analysis section of the report: title, source file (relative text), figures and tables."""

    title: str
    source: str
    figures: list[Figure] = field(default_factory=list)
    grids: list[Grid] = field(default_factory=list)


def discover(runs: Sequence[RunData]) -> list[tuple[Path, RunData]]:
    """Return the analysis files of ``runs`` (module docstring) with their run, each once, in run order."""
    found: dict[Path, RunData] = {}
    for run in runs:
        studies = [run.path.parent / name for name in STUDY_FILES]
        listed = sorted((run.path / ANALYSIS_DIR).glob("*.json"))
        for path in [*listed, *(p for p in studies if p.is_file())]:
            found.setdefault(path.resolve(), run)
    return list(found.items())


def analysis_of(doc: Any) -> tuple[Part | None, str]:
    """Return the registered analysis that draws ``doc`` and ``""``, or None and why it is not drawn.

    The reason is ``""`` for JSON that is no analysis document (no ``analysis`` name).
    """
    name = doc.get("analysis") if isinstance(doc, dict) else None
    if not isinstance(name, str):
        return None, ""
    try:
        part = ANALYSES.get(name)
    except UnknownNameError as exc:  # BrokenEntryError too: registered, but it cannot be imported
        return None, str(exc)
    if doc.get("version") != part.version:
        why = f"analysis {name!r} version {doc.get('version')!r}; this spatialbench draws {part.version}"
        return None, why
    return part, ""


def draw_document(out: Path, doc: dict[str, Any], stem: str) -> Analysis | None:
    """Draw one document into ``out/figures/<stem>/``; None when it is not drawn or has nothing to show.

    Raises:
        ValueError, KeyError, TypeError...: a document its analysis cannot draw.
    """
    part, _ = analysis_of(doc)
    if part is None:
        return None
    folder = out / "figures" / stem
    folder.mkdir(parents=True, exist_ok=True)  # an analysis draws into a folder that exists
    drawn = part.figures(doc, folder)
    grids = part.tables(doc)
    if not drawn and not grids:
        return None
    figures = [figure_of(out, list(d.paths), d.caption) for d in drawn]
    return Analysis(part.heading(doc), "", figures, grids)


def _listed(path: Path, why: str) -> Analysis:
    return Analysis(f"{path.name}: not drawn", f"{path} ({why})")


def draw_all(out: Path, runs: Sequence[RunData]) -> list[Analysis]:
    """Draw every analysis document found for ``runs`` (module docstring); others are listed, not drawn.

    Never raises for a malformed or unknown document: it is listed with the reason instead.
    """
    drawn = []
    for k, (path, _run) in enumerate(discover(runs)):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            part, why = analysis_of(doc)
            if why:
                drawn.append(_listed(path, why))
                continue
            result = draw_document(out, doc, f"analysis-{k + 1}-{slug(path.stem)}")
        except DRAW_ERRORS as exc:
            drawn.append(_listed(path, f"{type(exc).__name__}: {exc}"))
            continue
        if result is not None:
            drawn.append(Analysis(result.title, str(path), result.figures, result.grids))
    return drawn


def answerability_sections(runs: Sequence[RunData]) -> list[Analysis]:
    """Return one section per run that recorded answerability (synthetic scenes; issue 23 item 5).

    Titled by the run; its table: accuracy on answerable vs unanswerable items per task and overall, with
    n and 95 % intervals (:func:`~spatialbench.analysis.answerability.accuracy_by_answerability`).
    """
    sections = []
    for run in runs:
        verdicts = run.folder.answerability() if run.folder.has_store else {}
        split = accuracy_by_answerability(run.result.rows, verdicts) if verdicts else {}
        if split:
            grid = answerability_grid(split, "accuracy (%), 95 % interval and n")
            sections.append(Analysis(run.label, "", grids=[grid]))
    return sections
