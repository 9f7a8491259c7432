"""``probe``: probes on the phase-end representations of a traced HF run (ReMindView-Bench Sec. 6.1, Fig. 8).

Composes :mod:`~spatialbench.analysis.probe_features` (one row per traced item and phase) and
:mod:`~spatialbench.analysis.probing` (a probe per phase, split by scene). The document, one per probe
kind, is ``RUN/analysis/probe-<kind>.json`` (``analysis`` ``probe``; :data:`ANALYSIS`): per phase the
split sizes, the Fig. 8 cross-entropy between the probe's predicted logits and the VLM's answer logits
(``answer_logits``, soft target; :func:`~spatialbench.analysis.probing.answer_logit_ce`), the
majority-class chance and the hard-label probe's test accuracy / cross-entropy, overall, correct and
incorrect; drawn as Fig. 8 (answer-logit cross-entropy over the phases) with the accuracy curves beside.
Items are split by scene; the train / test item counts are printed per phase.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from spatialbench.analysis.entropy import check_traced, skipped_line, trace_folder
from spatialbench.analysis.probe_features import collect
from spatialbench.analysis.probing import HIDDEN, ProbeData, check_options, probe_phase
from spatialbench.analysis.registry import Analysis, AnalysisDocument, DrawnFigure
from spatialbench.analysis.stored import stored_answers
from spatialbench.records.progress import Progress, Tally
from spatialbench.runs.folder import RunFolder
from spatialbench.runs.plan import data_root
from spatialbench.scoring.render import Grid, Value

VERSION = 2  # 2: answer_logits (Fig. 8's soft-target cross-entropy)
SERIES = (("all", "o-"), ("correct", "s-"), ("incorrect", "^-"))
CHANCE = "chance (majority class)"


class ProbeParams(BaseModel):
    """Parameters of ``probe`` (:mod:`~spatialbench.analysis.probing`).

    ``traces``: trace folder (None: the run's); ``probe``: ``mlp`` or ``linear``; ``features``: ``logits``
    or ``hidden:J``; ``seed``: split and probe seed; ``test_size``: share of scenes held out;
    ``max_features``: logit columns kept.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    traces: Path | None = None
    probe: str = "mlp"
    features: str = "logits"
    seed: int = 0
    test_size: float = 0.25
    max_features: int = Field(default=4096, ge=1)


def _series(doc: dict[str, Any]) -> tuple[list[str], list[tuple[str, list[float], list[Value], str]]]:
    phases = doc["phases"]
    keys = sorted(phases, key=int)
    x = [float(k) for k in keys]
    series = [(g, x, [phases[k].get(g, {}).get("accuracy") for k in keys], style) for g, style in SERIES]
    series.append((CHANCE, x, [phases[k].get("chance") for k in keys], "k--"))
    return keys, series


def _ce_series(doc: dict[str, Any]) -> list[tuple[str, list[float], list[Value], str]]:
    phases = doc["phases"]
    keys = sorted(phases, key=int)
    x = [float(k) for k in keys]
    return [(g, x, [_soft(phases[k], g) for k in keys], style) for g, style in SERIES]


def _soft(phase: dict[str, Any], group: str) -> float | None:
    """Return the phase's answer-logit cross-entropy of ``group`` (None where not computed)."""
    value = ((phase.get("answer_logits") or {}).get(group) or {}).get("cross_entropy")
    return None if value is None else float(value)


class ProbeAnalysis(Analysis):
    """``probe``: the model's answer probed from each phase's end representation (Sec. 6.1, Fig. 8)."""

    name = "probe"
    description = "probes of the answer from phase-end logits or hidden states (ReMindView-Bench Fig. 8)"
    title = "Probe"
    version = VERSION
    Params = ProbeParams

    def compute(
        self, run: RunFolder, params: BaseModel, progress: Progress | None = None
    ) -> AnalysisDocument:
        """Collect the phase-end rows of the run's traces and train and score one probe per phase.

        ``progress``: called with (probes trained, phases).

        Raises:
            ValueError: bad ``probe`` / ``test_size`` (before any trace is read) or ``features``, traces of
                different logit widths. TraceError: no usable trace folder or no readable trace.
            RunFolderError: the run store, data or ``items.csv`` cannot be read.
        """
        assert isinstance(params, ProbeParams)
        check_options(params.probe, params.test_size)
        folder = trace_folder(run, params.traces)
        per_phase, counts, skipped = collect(run, run.items(), stored_answers(run), folder,
                                    data_root(str(run.data_path)), params.features, params.max_features)
        check_traced(folder, counts)
        results = {k: probe_phase(d, params.probe, params.seed, params.test_size)
                   for k, d in Tally(len(per_phase), progress).each(per_phase.items())}
        return self.document(
            run=run.name, probe=params.probe,
            features=params.features, seed=params.seed, split="by scene (GroupShuffleSplit)",
            trace_dir=str(folder), items=counts, unreadable_traces=skipped,
            hidden_layers=list(HIDDEN) if params.probe == "mlp" else None,
            logit_columns=_logit_columns(per_phase),
            phases={str(k): {key: v for key, v in r.items() if key != "test_index"}
                    for k, r in results.items()},
        )

    @staticmethod
    def setup_grids(doc: dict[str, Any]) -> list[Grid]:
        """Return the probe's set-up (depth, features, logit columns kept, split) and its items per phase."""
        keys = sorted(doc["phases"], key=int)
        layers = doc.get("hidden_layers")
        if doc.get("probe") == "mlp" and layers:
            probe = f"{len(layers)}-layer MLP: {len(layers)} hidden layers ({', '.join(map(str, layers))})"
        else:
            probe = str(doc.get("probe", "-"))
        rows: tuple[tuple[str, tuple[Value, ...]], ...] = (
            ("probe", (probe,)), ("features", (str(doc.get("features", "-")),)),
            ("logit columns kept", (doc.get("logit_columns"),)), ("split", (str(doc.get("split", "-")),)))
        counts = tuple((side, tuple(doc["phases"][k].get(side) for k in keys)) for side in ("train", "test"))
        return [Grid(("",), rows, "Probe set-up"),
                Grid(tuple(f"({k})" for k in keys), counts, "Items per phase (split by scene)")]

    def heading(self, doc: dict[str, Any]) -> str:
        """Return ``Probe: <kind>`` (one document per probe kind)."""
        return f"{self.title}: {doc.get('probe', '')}"

    def tables(self, doc: dict[str, Any]) -> list[Grid]:
        """CE against the answer logits and test accuracy per phase, then the set-up and items per phase."""
        keys, series = _series(doc)
        columns = tuple(f"({k})" for k in keys)
        return [
            Grid(columns, tuple((n, tuple(y)) for n, _, y, _ in _ce_series(doc)),
                 "Probe cross-entropy against the answer logits (nats, Fig. 8)"),
            Grid(columns, tuple((n, tuple(y)) for n, _, y, _ in series), "Probe accuracy"),
            *self.setup_grids(doc),
        ]

    def figures(self, doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
        """Accuracy curves over the phases with the chance line (``folder/probe.png``, ``.svg``)."""
        from spatialbench import charts  # matplotlib only when drawing

        keys, series = _series(doc)
        phases = [(float(k), f"({k})") for k in keys]  # the phases are categories, not a continuous axis
        title = f"{doc.get('probe', 'probe')} probe on {doc.get('features', 'features')}"
        ce = charts.curves(_ce_series(doc), f"{title}: CE vs answer logits", folder / f"{self.name}-ce",
                           "reasoning phase", "test cross-entropy (nats)", phases)
        paths = charts.curves(series, title, folder / self.name, "reasoning phase", "test accuracy", phases)
        return [DrawnFigure("Probe cross-entropy against the answer logits per phase (Fig. 8)", tuple(ce)),
                DrawnFigure("Probe accuracy per phase", tuple(paths))]


def _logit_columns(per_phase: dict[int, ProbeData]) -> int | None:
    """Return how many logit columns were kept (the answer logits' width; None without answer logits)."""
    widths = {d.answers.shape[1] for d in per_phase.values() if d.answers is not None and d.answers.ndim == 2}
    return widths.pop() if len(widths) == 1 else None


def summary_text(doc: dict[str, Any]) -> str:
    """Return one line per phase: test accuracy and cross-entropy, overall / correct / incorrect, chance."""

    def cell(part: dict[str, Any]) -> str:
        if part["accuracy"] is None:
            return "-"
        return f"acc {part['accuracy']:.3f} CE {part['cross_entropy']:.3f} (n {part['items']})"

    def soft(r: dict[str, Any]) -> str:
        parts = r.get("answer_logits") or {}
        values = {g: _soft(r, g) for g, _ in SERIES}
        return "; ".join(
            f"{g} {'-' if v is None else round(v, 3)} (n {(parts.get(g) or {}).get('items', 0)})"
            for g, v in values.items()
        )

    return "".join(
        f"phase ({k}): train {r['train']} / test {r['test']} items (by scene); "
        f"CE vs answer logits: {soft(r)}\n"
        f"  letter probe: all {cell(r['all'])}; correct {cell(r['correct'])}; "
        f"incorrect {cell(r['incorrect'])}; "
        f"chance {r['chance'] if r['chance'] is None else round(r['chance'], 3)}\n"
        for k, r in doc["phases"].items()
    ) + skipped_line(doc)


ANALYSIS = ProbeAnalysis()
