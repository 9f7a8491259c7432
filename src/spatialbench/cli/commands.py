"""Imports every sub-command module; a new sub-command is one new module plus one line here."""

from spatialbench.cli import (
    audit,  # noqa: F401
    baseline,  # noqa: F401
    demo,  # noqa: F401
    generate_vsibench,  # noqa: F401
    score,  # noqa: F401
    version,  # noqa: F401
)
