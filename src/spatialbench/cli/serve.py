"""``spatialbench serve --data DIR [--runs DIR ...]``: the local browser UI (:mod:`spatialbench.web`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from spatialbench.cli.apps import app, command_errors

if TYPE_CHECKING:
    from spatialbench.web.state import ServeState


@app.command()
def serve(
    data: Annotated[Path, typer.Option("--data", help="Benchmark folder or annotation file.")],
    runs: Annotated[list[Path] | None, typer.Option(
        "--runs", help="A run folder or a folder of runs; repeat: --runs A --runs B.")] = None,
    benchmark: Annotated[str, typer.Option("--benchmark", "-b", help="Benchmark name.")] = "vsibench",
    workdir: Annotated[
        Path, typer.Option("--workdir", help="Where human runs, flags.jsonl and annotations go.")
    ] = Path("serve-out"),
    audit: Annotated[Path | None, typer.Option("--audit", help="audit.json to review first.")] = None,
    host: Annotated[str, typer.Option("--host", help="Address to bind (local only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535)] = 8765,
) -> None:
    """Browse items and runs, evaluate as a human, flag questions, annotate errors (token-protected)."""
    import uvicorn

    from spatialbench.cli.out_dir import prepare_out_dir
    from spatialbench.web import ServeConfig, create_app, new_token

    _check_runs(runs or [])  # before the work folder is made
    prepare_out_dir(workdir, "--workdir")
    token = new_token()
    config = ServeConfig(data=data, workdir=workdir, token=token, benchmark=benchmark,
                         runs=tuple(runs or ()), audit=audit)
    with command_errors(ValueError, OSError, KeyError):  # the benchmark data cannot be loaded
        application = create_app(config)
    _notice_other_runs(application.state.serve)
    if host not in ("127.0.0.1", "localhost", "::1"):
        typer.echo(f"warning: listening on {host}: whoever reaches it with the token can use it", err=True)
    typer.echo(f"spatialbench serve: open http://{host}:{port}/?token={token}", err=True)
    uvicorn.run(application, host=host, port=port, log_level="warning")


def _check_runs(runs: list[Path]) -> None:
    """Refuse a ``--runs`` that is neither a readable run folder nor a folder holding run folders.

    Raises:
        RunFolderError: the folder does not exist or holds no run (``not a run folder (no config.json)``),
            or its ``config.json`` is not a run configuration (the message names the file).
    """
    from spatialbench.runs.folder import open_run

    for folder in runs:
        inside = sorted(folder.glob("*/config.json")) if folder.is_dir() else []
        if not inside or (folder / "config.json").is_file():
            open_run(folder)  # the folder itself must be a run


def _notice_other_runs(state: ServeState) -> None:
    """Name on stderr the runs under ``--runs`` that belong to another benchmark (they are not shown)."""
    others = state.other_runs()
    if others:
        listing = ", ".join(f"{r.path} ({r.benchmark or '?'})" for r in others)
        typer.echo(f"notice: {len(others)} run(s) of other benchmarks not shown: {listing}", err=True)
