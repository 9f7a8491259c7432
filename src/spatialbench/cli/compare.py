"""``spatialbench compare RUN RUN ...``: one table of runs and their differences.

VSI-Bench Fig. 13 and Tables 12-13 (vision enabled / disabled / chance), Fig. 9 (strategies), Table 7
(input order, repetition), App. C.3 (frame sweeps).

Prints the table (``--format markdown|csv|latex|json``) and writes all four to ``--out`` (default:
``<first RUN>/analysis/``) as ``compare_<run>_vs_<run>.{md,csv,tex,json}`` (named by the runs,
``_relative`` added for ``--relative``; another comparison is never overwritten: ``comparison_stem``);
rules in :mod:`spatialbench.analysis.compare`.
Exit 2: a folder that is not a scored run, runs of different benchmarks, unknown ``--against`` / subset.
``--against`` takes a run's name (its folder's name) or its folder path; a value naming one run and being
the folder of another is refused as ambiguous.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import CommandError, app
from spatialbench.cli.out_dir import new_out_dir
from spatialbench.cli.subset_option import SubsetOpt

RunsArg = Annotated[list[Path], typer.Argument(help="Run folders (spatialbench run --out ...).")]
AgainstOpt = Annotated[
    str | None,
    typer.Option("--against", help="Reference run (its name or folder): every other run minus it."),
]
FormatOpt = Annotated[str, typer.Option("--format", help="Printed format: markdown, csv, latex or json.")]
OutOpt = Annotated[
    Path | None, typer.Option("--out", help="Folder for compare_<runs>.{md,csv,...} (default RUN1/analysis).")
]


def _names(paths: list[Path]) -> list[str]:
    names = [p.resolve().name for p in paths]
    return names if len(set(names)) == len(names) else [str(p) for p in paths]


def _reference(against: str, runs: list[Path], names: list[str]) -> str:
    """Return the name of the run ``against`` names: a run's name, or a path to one of the run folders.

    Raises:
        CommandError: ``against`` is a folder that is not one of ``runs``, or names one run and is the
            folder of another (the message names both and asks for a folder).
    """
    folder = Path(against)
    here = folder.resolve() if folder.exists() else None
    by_path = [n for path, n in zip(runs, names, strict=True) if path.resolve() == here]
    by_name = [n for n in names if n == against]
    if by_path and by_name and by_path != by_name:
        folders = " or ".join(str(p) for p, n in zip(runs, names, strict=True) if n in by_path + by_name)
        raise CommandError(f"--against {against!r} is ambiguous: the run named {by_name[0]}, and the folder "
                         f"of the run {by_path[0]}; give that run's folder ({folders})")
    if not by_path and not by_name and folder.is_dir():
        raise CommandError(f"--against {against}: a folder, but not one of the runs compared "
                         f"({', '.join(names)}); give it as a RUN too")
    return (by_path or by_name or [against])[0]


@app.command("compare")
def compare(
    runs: RunsArg,
    against: AgainstOpt = None,
    subset: SubsetOpt = None,
    fmt: FormatOpt = "markdown",
    out: OutOpt = None,
    relative: Annotated[
        bool, typer.Option("--relative", help="Differences in % of the subtracted run.")
    ] = False,
) -> None:
    """Compare scored runs: a row per run, Enabled−Disabled / Disabled−Chance or RUN − REF rows."""
    from spatialbench.analysis.compare import ANALYSIS
    from spatialbench.analysis.compare_render import FORMATS, render, write_all
    from spatialbench.runs.folder import open_run

    if fmt not in FORMATS:
        raise CommandError(f"--format {fmt!r}: choose from {', '.join(FORMATS)}")
    if len(runs) < 2:  # one run has nothing to compare with; its scores are `spatialbench score --run`
        raise CommandError(f"compare needs two or more runs, got {len(runs)} ({runs[0]}); "
                           "`spatialbench score --run RUN` prints one run's scores")
    names = _names(runs)
    reference = None if against is None else _reference(against, runs, names)
    # not a scored run, runs of different benchmarks, an unknown subset: one line, exit 2 (cli/apps.py),
    # and the folders made for the output (RUN1/analysis of a missing RUN1) removed again
    with new_out_dir(out if out is not None else runs[0] / "analysis") as target:
        first = open_run(runs[0], names[0], scored=True)
        doc = ANALYSIS.run(first, others=tuple(runs[1:]), labels=tuple(names[1:]), against=reference,
                           subset=subset, relative=relative).model_dump(mode="json")
    write_all(doc, target)
    typer.echo(render(doc, fmt), nl=False)
