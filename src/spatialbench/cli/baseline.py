"""``spatialbench baseline``: chance-level baselines (VSI-Bench Sec. 4.1) scored on a benchmark."""

from __future__ import annotations

from typing import Annotated

import typer

from spatialbench.cli.apps import CommandError, app
from spatialbench.cli.score import (
    AnnotationsOpt,
    BenchmarkOpt,
    MraOpt,
    OutOpt,
    PrunedOpt,
    check_mra,
    check_out,
    emit,
    load_annotations,
    lookup,
    with_inputs,
)
from spatialbench.cli.score_options import LoaderOpt, loader_options
from spatialbench.cli.subset_option import SubsetOpt


@app.command()
def baseline(
    annotations: AnnotationsOpt,
    model: Annotated[
        str,
        typer.Option(
            "--model",
            "-m",
            help=(
                "chance-random, chance-frequency (Sec. 4.1, as its authors define it) or "
                "chance-frequency-string (the most frequent ground-truth string)."
            ),
        ),
    ],
    benchmark: BenchmarkOpt = "vsibench",
    mra: MraOpt = "official",
    out: OutOpt = None,
    pruned_ids: PrunedOpt = None,
    subset: SubsetOpt = None,
    option: LoaderOpt = None,
) -> None:
    """Score a chance baseline (no media needed) and print its table (``run --model chance-...`` too)."""
    from spatialbench.scoring.baselines import BASELINES

    check_mra(mra)  # the baselines pass the mode on unread where no item is numerical
    with check_out(out):  # unreadable annotations: one line, exit 2, no new --out left behind
        spec = lookup(benchmark)
        items = load_annotations(spec, annotations, pruned_ids, subset, loader_options(option))
        try:
            result = BASELINES.get(model)(items, spec.scoring, mra=mra)
        except ValueError as err:  # a baseline undefined for these items (no options, no positive truth)
            raise CommandError(str(err)) from err
    emit(with_inputs(result, items, pruned_ids, spec), out)
