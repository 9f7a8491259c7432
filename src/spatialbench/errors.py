"""The one base of the errors spatialbench raises on purpose: :class:`SpatialBenchError`.

Every specific error (a bad run file, an unreadable run folder, an unknown registered name...) derives from
it, usually beside the built-in class it always was (``class RunSetupError(SpatialBenchError, ValueError)``),
so callers that catch ``ValueError`` still do. The command line has one error boundary
(:mod:`spatialbench.cli.apps`): a ``SpatialBenchError`` escaping a command prints ``error: <message>`` on
one line and exits with the error's :attr:`SpatialBenchError.exit_code` (2: bad input or set-up, nothing
sent; 1: work ran but did not finish).
"""

from __future__ import annotations

from typing import ClassVar


class SpatialBenchError(Exception):
    """Base of spatialbench's own errors: a one-line message, an exit code and, where known, a location.

    Attributes:
        exit_code: the command's exit status when this error ends it (class default 2).
        location: the file, line, field or id at fault (``run.yaml:data.limit``), None when the message
            alone says it; subclasses that know it set ``self.location``.
    """

    exit_code: ClassVar[int] = 2
    location: str | None = None

    def __str__(self) -> str:
        # KeyError subclasses (UnknownNameError) would quote their message; show every message plainly
        return str(self.args[0]) if len(self.args) == 1 else super().__str__()


__all__ = ["SpatialBenchError"]
