"""The command-line reference page (``docs/cli.md``): every command's ``--help``, rendered from the app.

``python scripts/cli_reference.py`` writes it; ``tests/docs/test_docs.py`` fails while the page differs
from :func:`render_reference`, so a new command or option reaches the docs with the change that adds it.
The help is click's plain layout at a fixed width (not the terminal's rich boxes), so the page is the
same on every machine.
"""

from __future__ import annotations

from typing import Any

import typer

WIDTH = 100
"""Columns of the rendered help (fixed: the page must not depend on the terminal)."""

HEADER = """# Command line

Generated from the `spatialbench` commands' `--help` by `python scripts/cli_reference.py`; do not edit by
hand (a test fails while it is stale). Each workflow page explains its command.
"""


# typer 0.29 brings its own click (typer._click), so commands and contexts are typed Any here
def _help(command: Any, ctx: Any) -> str:
    """Return click's plain help of ``command`` (typer's ``format_help`` draws rich boxes instead)."""
    formatter = ctx.make_formatter()
    for part in ("format_usage", "format_help_text", "format_arguments", "format_options", "format_epilog"):
        method = getattr(command, part, None)  # a group has no format_arguments in click 8.5
        if method is not None:
            method(ctx, formatter)
    return formatter.getvalue().rstrip()


def _context(command: Any, name: str, parent: Any = None) -> Any:
    return command.context_class(command, info_name=name, parent=parent, terminal_width=WIDTH,
                                 max_content_width=WIDTH)


def _sections(command: Any, ctx: Any, level: int) -> list[str]:
    """Return the Markdown sections of ``command`` and of its sub-commands, depth first, sorted by name."""
    title = "#" * level + f" `{ctx.command_path}`"
    parts = [f"{title}\n\n```text\n{_help(command, ctx)}\n```\n"]
    if hasattr(command, "list_commands"):  # typer may bring its own click: no isinstance
        for name in sorted(command.list_commands(ctx)):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            parts += _sections(sub, _context(sub, name, ctx), min(level + 1, 4))
    return parts


def render_reference(app: typer.Typer) -> str:
    """Return the whole reference page of ``app`` (Markdown: one section per command)."""
    root = typer.main.get_command(app)
    return HEADER + "\n" + "\n".join(_sections(root, _context(root, "spatialbench"), 2))
