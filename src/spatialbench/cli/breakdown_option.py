"""The ``--breakdown-option KEY=VALUE`` / ``-B`` option of ``score`` and ``breakdown``.

A benchmark declares the options of its breakdown tables (``BenchmarkSpec.breakdown_options``); this
module offers them all through one repeatable option, checked against the declaration before any work.
``--sub-bench NAME`` is kept, hidden, as the deprecated spelling of ``-B sub_bench=NAME``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from spatialbench.cli.apps import CommandError

if TYPE_CHECKING:
    from pathlib import Path

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
    """Return the checked breakdown options (``-B`` pairs, then ``--sub-bench``).

    Raises:
        BreakdownOptionError: an option the benchmark does not declare.
        CommandError: a loader option given as ``-B`` (named as ``--option``), a pair without ``=``, a
            value the option does not allow; ``--sub-bench`` for a benchmark without sub-benchmarks.
    """
    from spatialbench.benchmarks.spec import BreakdownOptionError
    from spatialbench.cli.run_options import parse_assignments

    try:
        options = {k: str(v) for k, v in parse_assignments(pairs or [], "--breakdown-option", False).items()}
        if sub_bench is not None:
            options[SUB_BENCH] = sub_bench
        spec.check_breakdown_options(options)
    except BreakdownOptionError as err:
        if sub_bench is not None and err.option == SUB_BENCH:
            raise CommandError(
                f"--sub-bench does not apply to {spec.name} (it has no sub-benchmarks)"
            ) from None
        if err.option in (spec.option_names() or ()):  # ReVSI's budget: it selects the items, -B breaks down
            loader = f"{err.option} is a loader option: --option {err.option}=VALUE"
            raise CommandError(f"{err}; {loader}") from None
        raise
    except ValueError as err:  # a pair without "=", a value outside the option's values
        raise CommandError(str(err)) from None
    return options


def checked_before_work(
    benchmark: str | None, run: Path | None, predictions: Path | None, default: str,
    pairs: list[str] | None, sub_bench: str | None,
) -> dict[str, str]:
    """Check the breakdown options before anything is read or scored (:func:`breakdown_options`).

    The benchmark is ``benchmark``, else the run's (``--run`` without ``-p``: its ``config.json`` is
    read), else ``default``; with no option given nothing is looked up.

    Raises:
        UnknownNameError, RunFolderError: an unknown benchmark, an unreadable run folder.
        BreakdownOptionError, CommandError: as :func:`breakdown_options`.
    """
    if not pairs and sub_bench is None:
        return {}
    from spatialbench.benchmarks import get_benchmark

    if benchmark is None and run is not None and predictions is None:
        from spatialbench.runs.folder import open_run

        benchmark = open_run(run).benchmark
    return breakdown_options(get_benchmark(benchmark or default), pairs, sub_bench)
