"""The command-line reference page (``docs/cli.md``): every command's ``--help``, rendered from the app.

``python scripts/cli_reference.py`` writes it; ``tests/docs/test_docs.py`` fails while the page differs
from :func:`render_reference`, so a new command or option reaches the docs with the change that adds it.
The help is click's plain layout at a fixed width (not the terminal's rich boxes), so the page is the
same on every machine.
"""

from __future__ import annotations

import click
import typer

WIDTH = 100
"""Columns of the rendered help (fixed: the page must not depend on the terminal)."""

HEADER = """# Command line

Generated from the `spatialbench` commands' `--help` by `python scripts/cli_reference.py`; do not edit by
hand (a test fails while it is stale). Each workflow page explains its command.
"""


def _help(command: click.Command, ctx: click.Context) -> str:
    """Return click's plain help of ``command`` (typer's ``format_help`` draws rich boxes instead)."""
    formatter = click.HelpFormatter(width=WIDTH, max_width=WIDTH)
    for part in ("format_usage", "format_help_text", "format_arguments", "format_options", "format_epilog"):
        method = getattr(command, part, None)  # a group has no format_arguments in click 8.5
        if method is not None:
            method(ctx, formatter)
    return formatter.getvalue().rstrip()


def _sections(command: click.Command, ctx: click.Context, level: int) -> list[str]:
    """Return the Markdown sections of ``command`` and of its sub-commands, depth first, sorted by name."""
    title = "#" * level + f" `{ctx.command_path}`"
    parts = [f"{title}\n\n```text\n{_help(command, ctx)}\n```\n"]
    if hasattr(command, "list_commands"):  # typer may bring its own click: no isinstance
        for name in sorted(command.list_commands(ctx)):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            parts += _sections(sub, click.Context(sub, info_name=name, parent=ctx), min(level + 1, 4))
    return parts


def render_reference(app: typer.Typer) -> str:
    """Return the whole reference page of ``app`` (Markdown: one section per command)."""
    root = typer.main.get_command(app)
    ctx = click.Context(root, info_name="spatialbench")
    return HEADER + "\n" + "\n".join(_sections(root, ctx, 2))
