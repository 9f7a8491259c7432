"""``spatialbench judge RUN --judge MODEL [--judge MODEL ...]``: LLM judges score a run's reasoning phases.

ReMindView-Bench Sec. 5.1 / App. D.1 (:mod:`spatialbench.analysis.judge`): each judge scores phases 1–3 of
every answer against the item's view graph; prints the Table 2 layout (per phase, answers correct vs
incorrect: the judges' mean, each judge, the paper's rows) and the judges' agreement, and writes
``RUN/analysis/judge.json``. Judge requests are stored in ``RUN/analysis/judge/<model>/run.sqlite``: a
killed judge run resumes where it stopped. Exit 1: no judge scored any item (an existing ``judge.json``
is kept). Exit 2: not a scored run, unreadable data, unknown or repeated judge.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from spatialbench.cli.apps import app


def _number(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _row(name: str, table: dict[str, Any]) -> str:
    cells = [_number(table[group][k]["mean"]) for group in ("correct", "incorrect") for k in ("1", "2", "3")]
    return "| " + " | ".join([name, *cells]) + " |"


def table_text(doc: dict[str, Any]) -> str:
    """Return the Table 2 layout of a ``judge.json`` document, then agreement and counts."""
    lines = [
        "| judges | correct (1) | (2) | (3) | incorrect (1) | (2) | (3) |",
        "|---|" + "---:|" * 6,
        _row(f"mean of {len(doc['judges'])} judge(s)", doc["table"]),
        *(_row(judge, part["table"]) for judge, part in doc["per_judge"].items()),
    ]
    for model, groups in doc["reference"]["rows"].items():
        cells = [f"{v:.1f}" for group in ("correct", "incorrect") for v in groups[group]]
        lines.append("| " + " | ".join([f"{model} (Table 2)", *cells]) + " |")
    agreement = doc["agreement"]
    pairs = ", ".join(
        f"{p['judges'][0]} ~ {p['judges'][1]}: r = {_number(p['pearson'], 2)} ({p['units']} units)"
        for p in agreement["pairwise"]
    )
    alpha = f"Krippendorff's alpha (interval): {_number(agreement['krippendorff_alpha'], 3)}"
    lines += [
        "",
        alpha + (f"; {pairs}" if pairs else ""),
        "items: " + ", ".join(f"{k} {v}" for k, v in sorted(doc["items"].items())),
    ]
    for judge, part in doc["per_judge"].items():
        lines.append(
            f"{judge}: {part['valid']} valid, {part['failed']} failed, {part['requests_sent']} requests sent"
        )
    return "\n".join(lines) + "\n"


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
) -> None:
    """Score each answer's reasoning phases 1-3 with LLM judges (ReMindView-Bench App. D.1, Table 2)."""
    from spatialbench.analysis.judge.study import judge_study
    from spatialbench.analysis.stored import stored_answers
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.models.api import ApiSettings
    from spatialbench.models.errors import BackendError
    from spatialbench.models.resolve import load_backend
    from spatialbench.registry import UnknownNameError
    from spatialbench.runs.checks import RunFolderError, RunSetupError
    from spatialbench.runs.folder import open_run
    from spatialbench.runs.plan import data_root

    try:
        folder = open_run(run, scored=True)
        data = folder.raw_config["data"]
        items = get_benchmark(folder.benchmark).load_items(data["path"], **data.get("options", {}))
        answers = stored_answers(folder, turn)
        api = ApiSettings(concurrency=concurrency, timeout_s=timeout)
        if len(set(judges)) < len(judges):
            raise ValueError("the same --judge is given twice: " + ", ".join(judges))
        backends = {name: load_backend(name, api=api, seed=0) for name in judges}
        doc = judge_study(
            folder, list(items), answers, backends, data_root(data["path"]), concurrency, max_new_tokens
        )
    except (RunFolderError, RunSetupError, UnknownNameError, BackendError, ValueError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(table_text(doc), nl=False)
    finish(run, "judge", doc, sum(part["valid"] for part in doc["per_judge"].values()))


def finish(run: Path, name: str, doc: dict[str, Any], scored: int) -> None:
    """Write ``RUN/analysis/<name>.json`` when something was scored, else keep the old one and exit 1."""
    from spatialbench.analysis.stored import write_if_scored

    written, line = write_if_scored(run, name, doc, scored)
    typer.echo(line, err=not written)
    if not written:
        raise typer.Exit(1)
