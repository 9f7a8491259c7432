"""``spatialbench entropy RUN`` and ``spatialbench probe RUN``: latent-state analyses of a traced HF run.

ReMindView-Bench Sec. 6. Both read the compact traces a local Hugging Face run stored
(``HFBackend(trace_dir=...)``; the folder the run's back end recorded, or ``--traces``):

- ``entropy`` (Sec. 6.2, Fig. 9; :mod:`spatialbench.analysis.entropy`): per phase, mean and variance of the
  token entropies (nats) for answers correct and incorrect; writes ``RUN/analysis/entropy.json``.
- ``probe`` (Sec. 6.1, Fig. 8; :mod:`spatialbench.analysis.probing`): per phase, a probe from the phase-end
  logits (or ``--features hidden:J``) to the model's answer, split by scene; test accuracy and
  cross-entropy overall / correct / incorrect; writes ``RUN/analysis/probe-<kind>.json``.

Exit 2 (nothing written, an earlier result file is kept): not a scored run, bad options, the trace folder
missing or holding no readable trace of the run's answers, unreadable data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from spatialbench.cli.apps import app

TRACES = typer.Option("--traces", help="Trace folder (default: the trace_dir the run recorded).")


def _stat(cell: dict[str, Any]) -> str:
    if cell["mean"] is None:
        return "-"
    return f"{cell['mean']:.3f} ± {cell['variance']:.3f} ({cell['tokens']})"


def _usable(folder: Path, counts: dict[str, int]) -> None:
    """Exit 2 (nothing written) when no answer's trace could be read from ``folder``."""
    if counts.get("traced", 0) == 0:
        found = ", ".join(f"{k} {v}" for k, v in counts.items())
        typer.echo(f"error: {folder}: no readable trace of this run's answers ({found})", err=True)
        raise typer.Exit(2)


@app.command("entropy")
def entropy(
    run: Annotated[Path, typer.Argument(help="A scored HF run with traces.")],
    traces: Annotated[Path | None, TRACES] = None,
    bins: Annotated[int, typer.Option("--bins", min=1, help="Curve points per phase.")] = 10,
    turn: Annotated[str | None, typer.Option("--turn", help="A strategy turn's traces (e.g. cot).")] = None,
    markers: Annotated[
        str, typer.Option("--markers", help="Phase markers: paren '(k)' or step 'Step k'.")
    ] = "paren",
) -> None:
    """Token entropy per reasoning phase, correct vs incorrect answers (Sec. 6.2, Fig. 9)."""
    from spatialbench.analysis.entropy import entropy_study
    from spatialbench.analysis.stored import write_analysis
    from spatialbench.runs.checks import RunFolderError
    from spatialbench.runs.folder import open_run

    try:
        doc = entropy_study(open_run(run, scored=True), traces, bins, turn, markers)
    except (RunFolderError, ValueError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if doc["trace_dir"] is None:
        typer.echo(f"error: {run}: the run recorded no trace folder; give --traces DIR", err=True)
        raise typer.Exit(2)
    _usable(Path(doc["trace_dir"]), doc["items"])
    path = write_analysis(run, "entropy", doc)
    typer.echo("| phase | correct: mean ± variance (tokens) | incorrect | all |\n|---|---|---|---|")
    for k in ("1", "2", "3", "4"):
        cells = [_stat(doc["phases"][g][k]) for g in ("correct", "incorrect", "all")]
        typer.echo(f"| ({k}) | " + " | ".join(cells) + " |")
    typer.echo("items: " + ", ".join(f"{k} {v}" for k, v in doc["items"].items()))
    typer.echo(f"written: {path}")


@app.command("probe")
def probe(
    run: Annotated[Path, typer.Argument(help="A scored HF run with traces.")],
    traces: Annotated[Path | None, TRACES] = None,
    kind: Annotated[str, typer.Option("--probe", help="mlp (4 hidden layers) or linear.")] = "mlp",
    features: Annotated[str, typer.Option("--features", help="logits or hidden:J.")] = "logits",
    seed: Annotated[int, typer.Option("--seed", help="Split and probe seed.")] = 0,
    test_size: Annotated[float, typer.Option("--test-size", help="Share of scenes held out.")] = 0.25,
    max_features: Annotated[int, typer.Option("--max-features", min=1, help="Logit columns kept.")] = 4096,
) -> None:
    """Probe the phase-end representations for the model's answer (Sec. 6.1, Fig. 8)."""
    from spatialbench.analysis.entropy import trace_folder
    from spatialbench.analysis.probe_features import collect, summary
    from spatialbench.analysis.probing import check_options, probe_phase, study_document
    from spatialbench.analysis.stored import stored_answers, write_analysis
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.runs.checks import RunFolderError
    from spatialbench.runs.folder import open_run
    from spatialbench.runs.plan import data_root

    try:
        check_options(kind, test_size)
        folder = open_run(run, scored=True)
        where = trace_folder(folder, traces)
        if where is None:
            raise ValueError(f"{run}: the run recorded no trace folder; give --traces DIR")
        data = folder.raw_config["data"]
        items = list(get_benchmark(folder.benchmark).load_items(data["path"], **data.get("options", {})))
        per_phase, counts = collect(
            folder, items, stored_answers(folder), where, data_root(data["path"]), features, max_features
        )
        _usable(where, counts)
        results = {k: probe_phase(d, kind, seed, test_size) for k, d in per_phase.items()}
    except (RunFolderError, ValueError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    path = write_analysis(
        run, f"probe-{kind}", study_document(folder.name, kind, features, seed, results, counts, where)
    )
    for line in summary(results):
        typer.echo(line)
    typer.echo(f"written: {path}")
