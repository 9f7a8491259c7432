"""The Typer apps the sub-command modules register on, and the CLI's one error boundary.

No commands are defined here. A :class:`~spatialbench.errors.SpatialBenchError` escaping any command
prints ``error: <message>`` as one line on stderr, without a traceback, and exits with the error's
``exit_code`` (2: bad input or set-up, 1: work ran but did not finish, 130: interrupted). Any other
exception is a bug and is not caught here. A command therefore raises its error and lets the boundary
print it: a library's own SpatialBenchError as it is, its own checks (and a built-in error it words) as
:class:`CommandError` (a library call's ``ValueError`` / ``OSError`` / ``KeyError``: :func:`command_errors`);
it catches only to add to the message or to clean up.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from typer.core import TyperGroup

from spatialbench.errors import SpatialBenchError


def one_line(message: object) -> str:
    """Return ``str(message)`` on one line: its non-empty lines, stripped, joined by ``"; "``."""
    return "; ".join(part.strip() for part in str(message).splitlines() if part.strip())


class CommandError(SpatialBenchError):
    """An error a command words itself (exit 2, nothing was done).

    An option value it refuses, or a built-in or library error given the command's wording or hint
    (``--labels FILE: ...``).
    """


@contextmanager
def command_errors(*builtins: type[Exception]) -> Iterator[None]:
    """Re-raise the block's built-in errors of the ``builtins`` classes as :class:`CommandError`.

    For library calls whose code paths raise a built-in error (a ``ValueError``, ``OSError``,
    ``KeyError``) as well as spatialbench's own: the message is kept (a KeyError's without quotes); a
    :class:`~spatialbench.errors.SpatialBenchError` passes unchanged, with its own exit code.

    Raises:
        CommandError: an error of ``builtins`` raised in the block.
    """
    try:
        yield
    except SpatialBenchError:
        raise
    except builtins as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        raise CommandError(str(message)) from None


#: click's UsageError: typer's own copy of click (``typer._click`` in recent typer) or click itself;
#: BadParameter derives from it in both
_USAGE_ERROR: type[Exception] = typer.BadParameter.__base__  # type: ignore[assignment]
#: raised by ``no_args_is_help`` to print a group's help (click >= 8.2; none before)
_NO_ARGS_HELP: type[Exception] | tuple[()] = getattr(
    sys.modules[_USAGE_ERROR.__module__], "NoArgsIsHelpError", ()
)


class ErrorBoundary(TyperGroup):
    """A command group whose sub-commands' :class:`SpatialBenchError` become one line and their exit code.

    Give it to every ``typer.Typer`` (``typer.Typer(cls=ErrorBoundary)``); nested groups pass the inner
    group's ``typer.Exit`` through unchanged.
    """

    def invoke(self, ctx: Any) -> Any:
        """Invoke the chosen sub-command; a SpatialBenchError prints ``error: ...`` and exits its code.

        A usage error of the sub-command's options (out of range, missing, unknown) prints one
        ``Error: ...`` line and exits 2.

        Raises:
            typer.Exit: with the error's ``exit_code`` after a SpatialBenchError.
        """
        try:
            return super().invoke(ctx)
        except SpatialBenchError as err:
            typer.echo(f"error: {one_line(err)}", err=True)
            raise typer.Exit(err.exit_code) from None
        except _NO_ARGS_HELP:
            raise  # the sub-command's help, as asked
        except _USAGE_ERROR as err:  # an option out of range: one line like ours, not rich's 5-line box
            typer.echo(f"Error: {one_line(err.format_message())}", err=True)  # type: ignore[attr-defined]
            raise typer.Exit(err.exit_code) from None  # type: ignore[attr-defined]


app = typer.Typer(
    name="spatialbench",
    help="Build, run and analyse visual-spatial intelligence benchmarks for multimodal LLMs.",
    cls=ErrorBoundary,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
generate_app = typer.Typer(
    help="Generate a benchmark (VSI-Bench from meta-info, synthetic scenes).",
    cls=ErrorBoundary,
    no_args_is_help=True,
)
audit_app = typer.Typer(
    help="Audit a benchmark's answers against its 3D annotations.", cls=ErrorBoundary, no_args_is_help=True
)
app.add_typer(generate_app, name="generate")
app.add_typer(audit_app, name="audit")
