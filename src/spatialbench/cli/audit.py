"""``spatialbench audit vsibench``: re-derive official answers from the 3D meta-information (issue 3)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import audit_app

MetaInfoOpt = Annotated[Path, typer.Option("--meta-info", help="Meta-info JSON file or folder of them.")]
QuestionsOpt = Annotated[
    Path, typer.Option("--questions", help="Questions in the official schema (jsonl, parquet, json, folder).")
]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Folder for audit.json.")]
DistanceOpt = Annotated[
    str, typer.Option("--distance", help="Box distance: exact or sampled (paper's estimate).")
]


@audit_app.command("vsibench")
def audit_vsibench_command(
    meta_info: MetaInfoOpt, questions: QuestionsOpt, out: OutOpt = None, distance: DistanceOpt = "exact"
) -> None:
    """Recompute each question's answer from the boxes and report agreement per task."""
    from pydantic import ValidationError

    from spatialbench.audit.report import render_text, summarize, write_audit
    from spatialbench.audit.vsibench import audit_items
    from spatialbench.benchmarks.vsibench import load_vsibench
    from spatialbench.generate.vsi import GenerationSettings
    from spatialbench.scene import MetaInfoError, load_meta_info

    try:
        scenes = load_meta_info(meta_info)
        items = load_vsibench(questions)
        settings = GenerationSettings.model_validate({"distance_method": distance})
    except (MetaInfoError, FileNotFoundError, ValidationError, ValueError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    for row_error in items.errors:
        typer.echo(f"skipped row: {row_error}", err=True)
    summary = summarize(audit_items(items, scenes, settings))
    typer.echo(render_text(summary))
    if out is not None:
        typer.echo(f"wrote {write_audit(summary, out)}")
