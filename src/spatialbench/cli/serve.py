"""``spatialbench serve --data DIR [--runs DIR ...]``: the local browser UI (:mod:`spatialbench.web`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from spatialbench.cli.apps import CommandError, app, command_errors

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

    _check_host(host)
    port = _free_port(host, port)  # a busy port or an address not of this machine: one line, nothing made
    _check_runs(runs or [])  # before the work folder is made
    prepare_out_dir(workdir, "--workdir")
    token = new_token()
    config = ServeConfig(data=data, workdir=workdir, token=token, benchmark=benchmark,
                         runs=tuple(runs or ()), audit=audit)
    with command_errors(ValueError, OSError, KeyError):  # the benchmark data cannot be loaded
        application = create_app(config)
    _check_items(application.state.serve, data)
    _notice_other_runs(application.state.serve)
    if host not in ("127.0.0.1", "localhost", "::1"):
        where = f"every interface ({host})" if host in _EVERY_INTERFACE else host
        typer.echo(f"warning: listening on {where}: whoever reaches it with the token can use it", err=True)
    typer.echo(f"spatialbench serve: open http://{_url_host(host)}:{port}/?token={token}", err=True)
    uvicorn.run(application, host=host, port=port, log_level="warning")


def _free_port(host: str, port: int) -> int:
    """Return ``port`` (for 0: the free port the system gives) after checking it can be listened on.

    Binds and closes a socket, so the URL printed is one the server will answer on (uvicorn's own error
    came after the URL, with exit 3); another program may still take the port in between.

    Raises:
        CommandError: the address cannot be bound (in use, not an address of this machine, unknown name).
    """
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            probe.bind(address)
            return int(probe.getsockname()[1])
    except OSError as err:
        raise CommandError(f"cannot listen on {host} port {port}: {err.strerror or err}; choose another "
                           "--port (or --host)") from None


#: addresses that bind every interface of the machine
_EVERY_INTERFACE = ("0.0.0.0", "::")


def _check_host(host: str) -> None:
    """Refuse an empty ``--host``: uvicorn binds every interface for it, which nobody means by ''.

    Raises:
        CommandError: ``host`` is empty or blank.
    """
    if not host.strip():
        raise CommandError(f"--host {host!r}: give an address to bind: 127.0.0.1 (this machine only, the "
                           "default), or 0.0.0.0 / :: (every interface)")


def _url_host(host: str) -> str:
    """Return ``host`` as a URL writes it: an IPv6 address in brackets (``[::1]``).

    The wildcard ``::`` becomes the loopback ``[::1]``: a browser cannot open ``[::]``.
    """
    if ":" not in host:
        return host
    return "[::1]" if host == "::" else f"[{host}]"


def _check_runs(runs: list[Path]) -> None:
    """Refuse a ``--runs`` that is neither a readable run folder nor a folder holding readable run folders.

    Raises:
        RunFolderError: the folder does not exist or holds no run (``not a run folder (no config.json)``),
            its ``config.json`` is not a run configuration, or none of the runs inside can be read (the
            message names the folder and the first unreadable run's reason).
    """
    from spatialbench.runs.checks import RunFolderError
    from spatialbench.runs.folder import open_run

    for folder in runs:
        inside = sorted(folder.glob("*/config.json")) if folder.is_dir() else []
        if not inside or (folder / "config.json").is_file():
            open_run(folder)  # the folder itself must be a run
            continue
        reasons = []
        for config in inside:
            try:
                open_run(config.parent)
                break
            except RunFolderError as exc:
                reasons.append(str(exc))
        else:  # every run inside unreadable: the UI would show none of them, silently
            raise RunFolderError(f"--runs {folder}: none of its {len(inside)} run folder(s) can be read; "
                                 f"first: {reasons[0]}")


def _check_items(state: ServeState, data: Path) -> None:
    """Refuse data that gave no item (an empty browse page before, e.g. ReMindView data read as VSI-Bench).

    Raises:
        CommandError: no row of ``data`` loaded as a question of ``--benchmark``.
    """
    if state.items:
        return
    errors = state.load_errors
    first = f"; first: {errors[0]}" if errors else ""
    hint = "data of another benchmark needs --benchmark NAME (spatialbench list benchmarks)"
    raise CommandError(f"{data}: no {state.config.benchmark} question loaded "
                       f"({len(errors)} row error(s){first}); {hint}")


def _notice_other_runs(state: ServeState) -> None:
    """Name on stderr the runs under ``--runs`` of another benchmark or other questions (not shown)."""
    others = state.other_runs()
    if others:
        listing = ", ".join(f"{r.path} ({r.benchmark or '?'})" for r in others)
        typer.echo(f"notice: {len(others)} run(s) of other benchmarks not shown: {listing}", err=True)
    mismatched = state.mismatched_runs()
    if mismatched:
        listing = ", ".join(f"{r.path} ({why})" for r, why in mismatched)
        typer.echo(f"notice: {len(mismatched)} run(s) made on other questions than --data not shown (their "
                   f"scores would be by id only): {listing}", err=True)
