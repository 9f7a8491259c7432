"""The ``--subset`` option shared by ``run``, ``score``, ``baseline``, ``compare`` and ``errors sample``.

``--subset NAME`` selects one of the subsets the benchmark declares (``BenchmarkSpec.subsets``, e.g.
VSI-Bench's ``tiny`` and ``debiased``); ids a subset names that the annotations lack are listed, not
fatal. For the loaders it is the ``subset`` loader option (``-o subset=NAME``): a benchmark without subsets
refuses it as an unknown option.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

SubsetOpt = Annotated[
    str | None,
    typer.Option("--subset", help="A subset the benchmark declares (ids it lacks are listed)."),
]


def with_subset(options: dict[str, Any], subset: str | None) -> dict[str, Any]:
    """Return the loader options with ``subset`` set when given (``options`` itself is not changed)."""
    return {**options, "subset": subset} if subset else options
