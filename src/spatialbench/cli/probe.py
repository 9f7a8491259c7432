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
from typing import Annotated

import typer

from spatialbench.cli.analysis_command import analysed, write
from spatialbench.cli.apps import app

TRACES = typer.Option("--traces", help="Trace folder (default: the trace_dir the run recorded).")


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
    from spatialbench.analysis.entropy import summary_text

    doc = analysed(run, "entropy", progress=True, traces=traces, bins=bins, turn=turn, markers=markers)
    typer.echo(summary_text(doc), nl=False)
    write(run, doc)


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
    """Probe the phase-end representations for the model's answer (Sec. 6.1, Fig. 8).

    Fig. 8: cross-entropy between the probe's predicted logits and the VLM's answer logits (soft target:
    phase (4)'s logits over the kept columns), per phase, correct vs incorrect, with the letter probe's
    accuracy beside it. "4-layer MLP" is read as 4 hidden layers (256, 128, 64, 32). Split by scene.
    """
    from spatialbench.analysis.probe import summary_text

    doc = analysed(run, "probe", progress=True, traces=traces, probe=kind, features=features, seed=seed,
                   test_size=test_size, max_features=max_features)
    typer.echo(summary_text(doc), nl=False)
    write(run, doc, variant=kind)
