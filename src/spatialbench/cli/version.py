"""``spatialbench version``."""

import typer

from spatialbench import __version__
from spatialbench.cli.apps import app


@app.command()
def version() -> None:
    """Print the spatialbench version."""
    typer.echo(__version__)
