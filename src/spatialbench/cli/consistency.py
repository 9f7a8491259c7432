"""``spatialbench consistency RUN``: the self-consistency check of a run (ReMindView-Bench App. D.3).

The run's model (or ``--model``, e.g. the same model served elsewhere) gets Table 9's request only: each
item's images, its question and choices, its own phases 1–3 and final answer, and the Table 9 instruction
(no system prompt; answers without phases skipped and counted)
(:mod:`spatialbench.analysis.consistency`); prints the Table 3 layout (% consistent among correct,
incorrect and all answers, beside the paper's rows) and writes ``RUN/analysis/consistency.json``.
Requests are stored in ``RUN/analysis/consistency/<model>/run.sqlite`` (a killed check resumes; a second
process on the same store is refused: its ``run.lock``); a bar on stderr counts items on a terminal.
Exit 1: no item was checked (an existing ``consistency.json`` is kept; when every request failed only
the counts, requests sent with retries and the first failure are printed). Exit 2: not a scored run,
unreadable data, unknown model, another process on the store.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.analysis_command import analysed, finish
from spatialbench.cli.apps import app


@app.command("consistency")
def consistency(
    run: Annotated[Path, typer.Argument(help="A scored run folder (spatialbench run --out RUN).")],
    model: Annotated[
        str | None, typer.Option("--model", help="Model to ask (default: the run's model).")
    ] = None,
    turn: Annotated[
        str | None, typer.Option("--turn", help="Check this strategy turn's text (e.g. cot), not the answer.")
    ] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, help="Requests in flight.")] = 8,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds per request attempt.")] = 120.0,
    max_attempts: Annotated[
        int, typer.Option("--max-attempts", min=1, help="Attempts per request (retries included).")
    ] = 6,
) -> None:
    """Ask the model whether each final answer follows from its own reasoning (App. D.3, Table 3).

    Sent: Table 9's request only — the query images, the question and choices, phases 1-3, the final
    answer and the instruction; not the run's system prompt or answer-format line. Answers with no phases
    are skipped and counted (no_phases); "Not consistent" reads as inconsistent.
    """
    from spatialbench.analysis.consistency import counts_line, summary_text

    doc = analysed(run, "consistency", progress=True, model=model, turn=turn, concurrency=concurrency,
                   timeout_s=timeout, max_attempts=max_attempts)
    items = doc["items"]
    if items["valid"] == 0 and items["failed"]:  # nothing came back: the reason, no table of dashes
        typer.echo(counts_line(doc), err=True)
    else:
        typer.echo(summary_text(doc), nl=False)
    finish(run, doc, items["valid"])
