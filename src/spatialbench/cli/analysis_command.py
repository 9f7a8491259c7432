"""What every analysis command does around its analysis: open the run, run it, write its document.

A command parses its options, calls :func:`analysed` (``open_run`` → the registered analysis's ``arun``
through :func:`~spatialbench.api.sync.run_sync` → the document as JSON), prints, then :func:`write` or
:func:`finish` (write only when something was scored).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from spatialbench.cli.apps import command_errors
from spatialbench.cli.progress_bar import progress_bar


def analysed(run: Path, name: str, progress: bool = False, **params: Any) -> dict[str, Any]:
    """Run the registered analysis ``name`` on the scored run folder ``run``; its document as JSON.

    ``progress``: the analysis reports progress (``compute``/``acompute`` take ``progress``): a bar named
    after it on stderr while it runs (:mod:`~spatialbench.cli.progress_bar`).

    Raises:
        SpatialBenchError: (exit 2, one ``error:`` line at the boundary, nothing written) not a scored
            run, unreadable store, an unknown or unusable model, no usable traces.
        CommandError: a ValueError or OSError below (unreadable data, bad parameters), its message kept.
    """
    from spatialbench.analysis.registry import ANALYSES
    from spatialbench.api.sync import run_sync
    from spatialbench.runs.folder import open_run

    analysis = ANALYSES.get(name)
    with command_errors(ValueError, OSError), progress_bar(name) as bar:
        folder = open_run(run, scored=True)
        doc = run_sync(analysis.arun(folder, progress=bar if progress else None, **params))
    return doc.model_dump(mode="json")


def write(run: Path, doc: dict[str, Any], variant: str | None = None) -> None:
    """Write ``RUN/analysis/<analysis>[-<variant>].json`` and print its path."""
    from spatialbench.analysis.registry import AnalysisDocument, write_document

    document = AnalysisDocument.model_validate(doc)
    stem = document.analysis if variant is None else f"{document.analysis}-{variant}"
    typer.echo(f"written: {write_document(run, document, stem)}")


def finish(run: Path, doc: dict[str, Any], scored: int) -> None:
    """Write ``RUN/analysis/<analysis>.json`` when something was scored, else keep the old one and exit 1."""
    from spatialbench.analysis.stored import write_if_scored

    written, line = write_if_scored(run, str(doc["analysis"]), doc, scored)
    typer.echo(line, err=not written)
    if not written:
        raise typer.Exit(1)
