"""``spatialbench reconcile A B --out DIR``: explain the gap between two scored folders item by item."""

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.analysis.reconcile import reconcile_folders, reconcile_markdown
from spatialbench.cli.apps import app


@app.command()
def reconcile(
    a: Annotated[Path, typer.Argument(help="Scored folder A (`spatialbench score --out`).")],
    b: Annotated[Path, typer.Argument(help="Scored folder B, on the same benchmark.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Write reconcile.json and reconcile.md here.")],
) -> None:
    """Attribute A − B to causes in a fixed order (items, revision, text, extraction, MRA, aggregation)."""
    document = reconcile_folders(a, b, out)
    typer.echo(reconcile_markdown(document))
    typer.echo(f"wrote {out / 'reconcile.json'}, {out / 'reconcile.md'}")
