"""``spatialbench audit vsibench``: re-derive official answers from the 3D meta-information (issue 3)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import CommandError, audit_app
from spatialbench.cli.out_dir import prepare_out_dir
from spatialbench.cli.vsi_options import DistanceOpt, MetaInfoOpt

QuestionsOpt = Annotated[
    Path, typer.Option("--questions", help="Questions in the official schema (jsonl, parquet, json, folder).")
]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Folder for audit.json.")]
FlagsOpt = Annotated[
    Path | None,
    typer.Option("--flags", help="Review flags (spatialbench serve's flags.jsonl): each disagreement shows "
                 "its latest review."),
]


def read_reviews(flags: Path | None) -> dict[str, dict]:
    """Return the latest VSI-Bench review per item id in ``flags`` ({} without a file).

    Raises:
        FlagFileError: a line that is not a review. CommandError: no file at ``flags``.
    """
    from spatialbench.records.flags import latest_flags

    if flags is None:
        return {}
    try:
        return latest_flags(flags, "vsibench")
    except FileNotFoundError as err:
        raise CommandError(str(err)) from None


@audit_app.command("vsibench")
def audit_vsibench_command(
    meta_info: MetaInfoOpt,
    questions: QuestionsOpt,
    out: OutOpt = None,
    distance: DistanceOpt = "sampled",
    flags: FlagsOpt = None,
) -> None:
    """Recompute each question's answer from the boxes and report agreement per task.

    Rows that cannot be read are listed and skipped; a file without one readable question exits 2.
    """
    from spatialbench.audit.report import render_text, summarize, with_reviews, write_audit
    from spatialbench.audit.vsibench import audit_items
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.cli.score import load_annotations
    from spatialbench.generate.vsi import GenerationSettings
    from spatialbench.scene import load_meta_info

    reviews = read_reviews(flags)  # before the output folder: a bad flags file leaves nothing behind
    if out is not None:
        prepare_out_dir(out)
    scenes = load_meta_info(meta_info)
    items = load_annotations(get_benchmark("vsibench"), questions, None)
    settings = GenerationSettings.model_validate({"distance_method": distance})
    summary = summarize(audit_items(items, scenes, settings))
    if flags is not None:
        summary = with_reviews(summary, reviews)
    typer.echo(render_text(summary))
    if out is not None:
        typer.echo(f"wrote {write_audit(summary, out)}")
