"""Options shared by ``generate vsibench`` and ``audit vsibench``, and the output-folder check.

Setting names are checked by a callback against :class:`~spatialbench.generate.vsi.GenerationSettings`
(the one list of allowed values), so a typo is a one-line usage error, not a pydantic dump.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, get_args

import typer


def _setting_choice(field: str) -> Callable[[str], str]:
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
        help="Box distance: exact or sampled (paper's estimate).",
        callback=_setting_choice("distance_method"),
    ),
]
GapRuleOpt = Annotated[
    str,
    typer.Option(
        "--rel-distance-rule",
        help="Rel. distance ambiguity: any_pair (paper) or closest (data).",
        callback=_setting_choice("rel_distance_gap_rule"),
    ),
]


def prepare_out_dir(out: Path, option: str = "--out") -> Path:
    """Create ``out`` (with parents) and check that a file can be written in it, before any work is done.

    Raises:
        typer.Exit: code 2 after one line naming ``option`` and the path (an existing file, a path below
            a file, no permission, read-only file system).
    """
    probe = out / f".spatialbench-write-test-{os.getpid()}"
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe.touch()
        probe.unlink()
    except OSError as err:
        why = "exists and is not a folder" if out.exists() and not out.is_dir() else err.strerror or str(err)
        typer.echo(f"error: {option} {out}: not a writable folder ({why})", err=True)
        raise typer.Exit(2) from None
    return out
