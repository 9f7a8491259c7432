"""The ``--breakdown-option KEY=VALUE`` / ``-B`` option of ``score`` and ``breakdown``.

A benchmark declares the options of its breakdown tables (``BenchmarkSpec.breakdown_options``); this
module offers them all through one repeatable option, checked against the declaration before any work.
``--sub-bench NAME`` is kept, hidden, as the deprecated spelling of ``-B sub_bench=NAME``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from spatialbench.benchmarks.spec import BenchmarkSpec

BreakdownOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--breakdown-option",
        "-B",
        help="Breakdown option KEY=VALUE the benchmark declares (repeat); an unknown KEY lists them.",
    ),
]
SubBenchOpt = Annotated[
    str | None, typer.Option("--sub-bench", hidden=True, help="Deprecated: -B sub_bench=NAME.")
]
SUB_BENCH = "sub_bench"  # the option --sub-bench stands for


def breakdown_options(spec: BenchmarkSpec, pairs: list[str] | None, sub_bench: str | None) -> dict[str, str]:
    """Return the checked breakdown options (``-B`` pairs, then ``--sub-bench``); bad ones: one line, exit 2.

    Refused: a pair without ``=``, an option the benchmark does not declare (``--sub-bench`` for a
    benchmark without sub-benchmarks says so), a value the option does not allow.
    """
    from spatialbench.benchmarks.spec import BreakdownOptionError
    from spatialbench.cli.run_options import parse_assignments

    try:
        options = {k: str(v) for k, v in parse_assignments(pairs or [], "--breakdown-option", False).items()}
        if sub_bench is not None:
            options[SUB_BENCH] = sub_bench
        spec.check_breakdown_options(options)
    except BreakdownOptionError as err:
        message = str(err)
        if sub_bench is not None and err.option == SUB_BENCH:
            message = f"--sub-bench does not apply to {spec.name} (it has no sub-benchmarks)"
        typer.echo(f"error: {message}", err=True)
        raise typer.Exit(2) from None
    except ValueError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    return options


def checked_options(
    benchmark: str | None, run: Path | None, default: str, pairs: list[str] | None, sub_bench: str | None
) -> dict[str, str]:
    """Check the breakdown options against the benchmark named (or the run's, else ``default``) first.

    So a bad ``-B`` is one line before any file is read (:func:`breakdown_options`); none given: ``{}``.

    Raises:
        UnknownNameError: an unknown benchmark. RunFolderError: ``run`` is not a run folder.
    """
    if not pairs and sub_bench is None:
        return {}
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.runs.folder import open_run

    spec = get_benchmark(benchmark) if benchmark else open_run(run).spec if run else get_benchmark(default)
    return breakdown_options(spec, pairs, sub_bench)
