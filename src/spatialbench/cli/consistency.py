"""``spatialbench consistency RUN``: the self-consistency check of a run (ReMindView-Bench App. D.3).

The run's model (or ``--model``, e.g. the same model served elsewhere) gets each item's images and
question, its own phases 1–3 and final answer, and the Table 9 instruction
(:mod:`spatialbench.analysis.consistency`); prints the Table 3 layout (% consistent among correct,
incorrect and all answers, beside the paper's rows) and writes ``RUN/analysis/consistency.json``.
Requests are stored in ``RUN/analysis/consistency/<model>/run.sqlite`` (a killed check resumes). Exit 1:
no item was checked (an existing ``consistency.json`` is kept). Exit 2: not a scored run, unreadable
data, unknown model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from spatialbench.cli.apps import app


def _percent(cell: dict[str, Any]) -> str:
    return "-" if cell["percent"] is None else f"{cell['percent']:.1f}"


def table_text(doc: dict[str, Any], name: str) -> str:
    """Return the Table 3 layout of a ``consistency.json`` document and its counts."""
    groups = ("correct", "incorrect", "all")
    lines = [
        "| model | correct (%) | incorrect (%) | overall (%) |",
        "|---|---:|---:|---:|",
        "| " + " | ".join([name, *(_percent(doc["table"][g]) for g in groups)]) + " |",
        "| " + " | ".join(["items", *(str(doc["table"][g]["items"]) for g in groups)]) + " |",
    ]
    lines += [
        "| " + " | ".join([f"{model} (Table 3)", *(f"{v:.1f}" for v in row)]) + " |"
        for model, row in doc["reference"]["rows"].items()
    ]
    lines += ["", "items: " + ", ".join(f"{k} {v}" for k, v in sorted(doc["items"].items()))]
    return "\n".join(lines) + "\n"


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
) -> None:
    """Ask the model whether each final answer follows from its own reasoning (App. D.3, Table 3)."""
    from spatialbench.analysis.consistency import consistency_study
    from spatialbench.analysis.stored import stored_answers
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.models.api import ApiSettings
    from spatialbench.models.errors import BackendError
    from spatialbench.models.resolve import load_backend
    from spatialbench.registry import UnknownNameError
    from spatialbench.runs.checks import RunFolderError, RunSetupError
    from spatialbench.runs.folder import open_run

    try:
        folder = open_run(run, scored=True)
        data = folder.raw_config["data"]
        items = get_benchmark(folder.benchmark).load_items(data["path"], **data.get("options", {}))
        answers = stored_answers(folder, turn)
        name = model or folder.model
        seed = int(folder.raw_config["model"].get("seed", 0))
        backend = load_backend(name, api=ApiSettings(concurrency=concurrency, timeout_s=timeout), seed=seed)
        doc = consistency_study(folder, list(items), answers, name, backend, concurrency)
    except (RunFolderError, RunSetupError, UnknownNameError, BackendError, ValueError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    from spatialbench.cli.judge import finish

    typer.echo(table_text(doc, folder.name), nl=False)
    finish(run, "consistency", doc, doc["items"]["valid"])
