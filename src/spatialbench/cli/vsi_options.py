"""Options shared by ``generate vsibench`` and ``audit vsibench``.

Setting names are checked by a callback against :class:`~spatialbench.generate.vsi.GenerationSettings`
(the one list of allowed values), so a typo is a one-line usage error, not a pydantic dump.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, get_args

import typer


def setting_choice(field: str) -> Callable[[str], str]:
    """Return a typer callback accepting only the values ``GenerationSettings.<field>`` allows."""

    def check(value: str) -> str:
        from spatialbench.generate.vsi.settings import GenerationSettings

        allowed = get_args(GenerationSettings.model_fields[field].annotation)
        if value not in allowed:
            raise typer.BadParameter(f"{value!r}; use one of: {', '.join(allowed)}")
        return value

    return check


MetaInfoOpt = Annotated[Path, typer.Option("--meta-info", help="Meta-info JSON file or folder of them.")]
DistanceOpt = Annotated[
    str,
    typer.Option(
        "--distance",
        help="Box distance: sampled (default: the paper's seeded estimate, as the official data) or exact.",
        callback=setting_choice("distance_method"),
    ),
]
GapRuleOpt = Annotated[
    str,
    typer.Option(
        "--rel-distance-rule",
        help="Rel. distance ambiguity: data (default, the official data), any_pair (paper) or closest.",
        callback=setting_choice("rel_distance_gap_rule"),
    ),
]
