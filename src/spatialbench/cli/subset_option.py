"""The ``--subset`` option shared by ``run``, ``score``, ``baseline`` and ``compare`` (VSI-Bench (tiny)).

``--subset tiny`` keeps the 400 ids of VSI-Bench (tiny), the subset behind the paper's human-level row and
analyses (:mod:`spatialbench.benchmarks.vsibench.tiny`); ids the annotations lack are listed, not fatal.
For the loaders it is the ``subset`` loader option (``-o subset=tiny``).
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

SubsetOpt = Annotated[
    str | None,
    typer.Option("--subset", help="tiny: only the VSI-Bench (tiny) ids (missing ids are listed)."),
]


def with_subset(options: dict[str, Any], subset: str | None) -> dict[str, Any]:
    """Return the loader options with ``subset`` set when given (``options`` itself is not changed)."""
    return {**options, "subset": subset} if subset else options
