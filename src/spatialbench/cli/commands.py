"""Imports every sub-command module; a new sub-command is one new module plus one line here."""

from spatialbench.cli import version  # noqa: F401
