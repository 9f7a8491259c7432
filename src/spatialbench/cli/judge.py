"""``spatialbench judge RUN --judge MODEL [--judge MODEL ...]``: LLM judges score a run's reasoning phases.

ReMindView-Bench Sec. 5.1 / App. D.1 (:mod:`spatialbench.analysis.judge`): each judge scores phases 1–3 of
every answer against the item's view graph; prints the Table 2 layout (per phase, answers correct vs
incorrect: the judges' mean, each judge, the paper's rows) and the judges' agreement, and writes
``RUN/analysis/judge.json``. Judge requests are stored in ``RUN/analysis/judge/<model>/run.sqlite``: a
killed judge run resumes where it stopped; a second process judging the same run with the same judge is
refused (its ``run.lock``). A bar on stderr counts judgements while they run (on a terminal only). Exit 1:
no judge scored any item (an existing ``judge.json`` is kept; when every request failed only the
judges' counts, requests sent with retries and first failure, are printed, not a table of dashes).
Exit 2: not a scored run, unreadable data, unknown or repeated judge, another process on the store.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.analysis_command import analysed, finish
from spatialbench.cli.apps import app


@app.command("judge")
def judge(
    run: Annotated[Path, typer.Argument(help="A scored run folder (spatialbench run --out RUN).")],
    judges: Annotated[list[str], typer.Option("--judge", help="Judge model (repeat for several).")],
    turn: Annotated[
        str | None, typer.Option("--turn", help="Judge this strategy turn's text (e.g. cot), not the answer.")
    ] = None,
    concurrency: Annotated[
        int, typer.Option("--concurrency", min=1, help="Requests in flight per judge.")
    ] = 8,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds per request attempt.")] = 120.0,
    max_new_tokens: Annotated[
        int, typer.Option("--max-new-tokens", min=1, help="Judge reply budget.")
    ] = 1024,
    max_attempts: Annotated[
        int, typer.Option("--max-attempts", min=1, help="Attempts per request (retries included).")
    ] = 6,
) -> None:
    """Score each answer's reasoning phases 1-3 with LLM judges (ReMindView-Bench App. D.1, Table 2)."""
    from spatialbench.analysis.judge.views import judge_lines, summary_text

    doc = analysed(run, "judge", progress=True, judges=tuple(judges), turn=turn, concurrency=concurrency,
                   timeout_s=timeout, max_new_tokens=max_new_tokens, max_attempts=max_attempts)
    parts = doc["per_judge"].values()
    valid = sum(part["valid"] for part in parts)
    if valid == 0 and any(part["failed"] for part in parts):  # nothing came back: the reason, no table
        typer.echo("\n".join(judge_lines(doc)), err=True)
    else:
        typer.echo(summary_text(doc), nl=False)
    finish(run, doc, valid)
