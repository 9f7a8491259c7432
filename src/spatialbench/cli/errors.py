"""``spatialbench errors sample RUN`` and ``spatialbench errors table FILE ...``: the error taxonomy.

``sample`` writes the App. B.2 sample of a run's errors to an annotation file (default
``RUN/analysis/errors.json``; schema in :mod:`spatialbench.analysis.errors`), keeping the annotations
of an earlier file there. ``table`` aggregates annotated files per task, a multi-cause error counting
1/n to each category, prints the shares and writes ``errors_table.{json,md,csv}`` beside the first file
(or into ``--out``). ``--subset tiny`` samples only VSI-Bench (tiny) items, as the paper does (App.
B.2). Exit 2: not a scored run, unreadable benchmark data, a malformed annotation file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from spatialbench.cli.apps import CommandError, ErrorBoundary, app, command_errors
from spatialbench.cli.out_dir import prepare_out_dir
from spatialbench.cli.subset_option import SubsetOpt, with_subset

errors_app = typer.Typer(
    help="Error taxonomy: sample a run's errors to annotate; aggregate annotations.", cls=ErrorBoundary,
    no_args_is_help=True,
)
app.add_typer(errors_app, name="errors")

TaxonomyOpt = Annotated[
    str | None,
    typer.Option(
        "--taxonomy", help="vsi-bench (4 types) or mmsi-video (5): the run's benchmark's; another is refused."
    ),
]


def _write(path: Path, text: str) -> None:
    part = path.with_name(path.name + ".part")
    part.write_text(text, encoding="utf-8")
    part.replace(path)


@errors_app.command("sample")
def sample(
    run: Annotated[Path, typer.Argument(help="A scored run folder.")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Annotation file (default RUN/analysis/errors.json).")
    ] = None,
    taxonomy_name: TaxonomyOpt = None,
    per_task: Annotated[
        int | None, typer.Option("--per-task", min=1, help="Keep N per task at random.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of --per-task.")] = 0,
    subset: SubsetOpt = None,
) -> None:
    """Write all wrong MCA answers and the worse half of NA answers per task (App. B.2) to annotate."""
    from spatialbench.analysis.error_table import read_annotations
    from spatialbench.analysis.errors import (
        default_taxonomy,
        sample_document,
    )
    from spatialbench.runs.folder import open_run

    target = out if out is not None else run / "analysis" / "errors.json"
    prepare_out_dir(target.parent)
    with command_errors(KeyError, ValueError, OSError):  # unreadable benchmark data or annotations
        folder = open_run(run, scored=True)
        items = folder.load(**with_subset({}, subset))
        previous = read_annotations(target) if target.exists() else None
        name = taxonomy_name or default_taxonomy(folder.benchmark)
        doc = sample_document(folder, items, name, per_task, seed, previous, only_items=subset is not None)
    _write(target, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    _summary(doc, target)


def _summary(doc: dict[str, Any], target: Path) -> None:
    sampled = [e for e in doc["items"] if e.get("sampled", True)]
    explained = sum(e["explanation"] is not None for e in sampled)
    per_task = [
        f"{t} {sum(e['task'] == t for e in sampled)}" for t in dict.fromkeys(e["task"] for e in sampled)
    ]
    typer.echo(
        f"{len(sampled)} errors sampled ({', '.join(per_task) or 'none'}); "
        f"self-explanations: {explained} -> {target}"
    )
    if sampled and not explained:
        typer.echo(
            "note: the run has no self-explanations (run it with --strategy self-explanation)", err=True
        )


@errors_app.command("table")
def table(
    files: Annotated[list[Path], typer.Argument(help="Annotation files (errors sample output, annotated).")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Folder for errors_table.* (default: beside FILE1).")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="Printed format: markdown, csv or json.")] = "markdown",
) -> None:
    """Aggregate annotated errors per task; a multi-cause error counts 1/n to each category (App. B.2)."""
    from dataclasses import replace

    from spatialbench.analysis.error_table import ANALYSIS, table_document
    from spatialbench.scoring.render import to_csv, to_markdown

    if fmt not in ("markdown", "csv", "json"):
        raise CommandError(f"--format {fmt!r}: choose from markdown, csv, json")
    target = prepare_out_dir(out if out is not None else files[0].parent)
    with command_errors(OSError):  # an AnnotationError (a malformed file): one line, exit 2 (cli/apps.py)
        doc = table_document(files).model_dump(mode="json")
    grid = replace(ANALYSIS.tables(doc)[0], title=None)
    missing = doc["not_annotated"]["all"]
    note = f"\n{missing} sampled error(s) not annotated yet (empty 'errors').\n" if missing else ""
    texts = {
        "json": json.dumps(doc, indent=2) + "\n",
        "csv": to_csv(grid),
        "markdown": f"**error types ({doc['taxonomy']}), % of annotated errors**\n\n"
        + "\n".join(to_markdown(grid)) + "\n" + note,
    }
    for name, suffix in (("json", "json"), ("markdown", "md"), ("csv", "csv")):
        _write(target / f"{ANALYSIS.file}.{suffix}", texts[name])
    typer.echo(texts[fmt], nl=False)
