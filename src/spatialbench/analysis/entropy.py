"""Entropy dynamics of a run's reasoning phases (ReMindView-Bench Sec. 6.2, Fig. 9), from stored traces.

For a local Hugging Face run with traces on (``HFBackend(trace_dir=...)``,
:mod:`spatialbench.models.hf_trace`) every generated token has the exact Shannon entropy (nats) of the
softmax over the whole vocabulary. Tokens without a letter or digit (whitespace, punctuation, special
tokens) are skipped (:func:`~spatialbench.models.hf_trace.is_content`); each remaining token belongs to
the phase whose span (:mod:`spatialbench.analysis.phases`, on the concatenated token pieces) holds its
first character.

Per group (``correct``, ``incorrect``, ``all``; :func:`~spatialbench.analysis.stored.correct_items`) and
phase: the token count, the mean and (population) variance of the token entropies pooled over the
group's items, the item count, and a curve of mean entropy over ``bins`` equal parts of the phase's
tokens (relative position within the phase). Items are read one trace at a time (memory bounded for any
run size); items without a trace or with an unreadable one (a missing array, arrays of different lengths)
are counted and the first unreadable ones named (``unreadable_traces``), not fatal, but a run of which no
answer's trace can be read is a :class:`TraceError`. The document is ``RUN/analysis/entropy.json``
(registered as analysis ``entropy``: :data:`ANALYSIS`), drawn as bars per phase and curves over the phases.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from spatialbench.analysis.phases import PHASES, split
from spatialbench.analysis.registry import Analysis, AnalysisDocument, DrawnFigure
from spatialbench.analysis.stored import correct_items, stored_answers
from spatialbench.errors import SpatialBenchError
from spatialbench.models.hf_trace import is_content, read_trace
from spatialbench.records.progress import Progress, Tally
from spatialbench.runs.folder import RunFolder
from spatialbench.scoring.render import Grid, Value, to_markdown

Trace = dict[str, np.ndarray]
"""One answer's trace arrays (:mod:`spatialbench.models.hf_trace`)."""

VERSION = 1
GROUPS = ("correct", "incorrect", "all")


class TraceError(SpatialBenchError, ValueError):
    """No usable trace folder: none recorded or given, not a directory, or no readable trace of the run."""


@dataclass
class _Moments:
    """Streaming sums of one (group, phase) cell."""

    bins: int
    tokens: int = 0
    total: float = 0.0
    squares: float = 0.0
    items: int = 0
    curve_sum: list[float] = field(default_factory=list)
    curve_n: list[int] = field(default_factory=list)

    def add(self, values: np.ndarray) -> None:
        if not len(values):
            return
        if not self.curve_sum:
            self.curve_sum, self.curve_n = [0.0] * self.bins, [0] * self.bins
        self.tokens += len(values)
        self.total += float(values.sum())
        self.squares += float((values.astype(np.float64) ** 2).sum())
        self.items += 1
        where = np.minimum((np.arange(len(values)) * self.bins) // len(values), self.bins - 1)
        for b in range(self.bins):
            chosen = values[where == b]
            self.curve_sum[b] += float(chosen.sum())
            self.curve_n[b] += len(chosen)

    def summary(self) -> dict[str, Any]:
        mean = self.total / self.tokens if self.tokens else None
        variance = self.squares / self.tokens - mean**2 if mean is not None else None
        curve = [s / n if n else None for s, n in zip(self.curve_sum, self.curve_n, strict=True)]
        return {
            "tokens": self.tokens,
            "items": self.items,
            "mean": mean,
            "variance": None if variance is None else max(variance, 0.0),
            "curve": curve,
        }


def phase_entropies(trace: dict[str, np.ndarray], markers: str = "paren") -> dict[int, np.ndarray]:
    """Return phase → entropies (nats, in order) of its content tokens, from one trace's arrays."""
    pieces = [str(p) for p in trace["pieces"]]
    phases = split("".join(pieces), markers)
    out: dict[int, list[float]] = {k: [] for k in phases.spans}
    for piece, offset, value in zip(pieces, trace["offsets"], trace["entropy"], strict=True):
        k = phases.phase_of(int(offset))
        if k is not None and is_content(piece):
            out[k].append(float(value))
    return {k: np.array(v, dtype=np.float64) for k, v in out.items()}


def trace_folder(run: RunFolder, given: Path | None) -> Path:
    """Return the trace folder: ``given``, else the ``trace_dir`` the run's back end recorded.

    Raises:
        TraceError: the run recorded none and none is given, or the folder is not a directory (the message
            names it).
    """
    recorded = (run.record.get("backend") or {}).get("trace_dir")
    folder = given if given is not None else Path(recorded) if recorded else None
    if folder is None:
        raise TraceError(f"{run.path}: the run recorded no trace folder; give --traces DIR")
    if not folder.is_dir():
        raise TraceError(f"{folder}: not a trace folder (no such directory); give --traces DIR")
    return folder


SKIPPED_SHOWN = 10
"""How many unreadable traces a document names (``unreadable_traces``); the count holds them all."""


def read_counted(path: Path, counts: MutableMapping[str, int], skipped: list[str]) -> Trace | None:
    """Return the trace at ``path``, or None after counting it ``unreadable`` and keeping why in ``skipped``.

    A trace that cannot be read, lacks an array or holds arrays of different lengths is one bad answer,
    not a bad run (:func:`~spatialbench.models.hf_trace.read_trace` names the file and the arrays).
    """
    try:
        return read_trace(path)
    except (OSError, ValueError) as exc:
        counts["unreadable"] = counts.get("unreadable", 0) + 1
        if len(skipped) < SKIPPED_SHOWN:
            skipped.append(str(exc))
        return None


def skipped_line(doc: dict[str, Any]) -> str:
    """Return the summary line naming the unreadable traces skipped ("" when none)."""
    skipped = doc.get("unreadable_traces") or []
    if not skipped:
        return ""
    more = doc["items"].get("unreadable", len(skipped)) - 1
    return f"skipped unreadable trace(s): {skipped[0]}" + (f" (and {more} more)" if more > 0 else "") + "\n"


def check_traced(folder: Path, counts: dict[str, int]) -> None:
    """Raise TraceError (naming ``folder`` and the counts) when no answer's trace could be read from it."""
    if counts.get("traced", 0) == 0:
        found = ", ".join(f"{k} {v}" for k, v in counts.items())
        raise TraceError(f"{folder}: no readable trace of this run's answers ({found})")


def entropy_study(
    run: RunFolder,
    folder: Path,
    bins: int = 10,
    turn: str | None = None,
    markers: str = "paren",
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Return the entropy fields of ``run`` from the traces in ``folder`` (module docstring).

    ``markers``: the phase marker style (:data:`spatialbench.analysis.phases.MARKERS`); ``progress``:
    called with (answers read, answers).

    Raises:
        RunFolderError: the run store or ``items.csv`` cannot be read.
    """
    cells = {(g, k): _Moments(bins) for g in GROUPS for k in PHASES}
    counts = {"answers": 0, "traced": 0, "no_trace": 0, "unreadable": 0, "unscored": 0}
    skipped: list[str] = []
    correct = correct_items(run)
    answers = stored_answers(run, turn)
    for item_id, answer in Tally(len(answers), progress).each(answers.items()):
        counts["answers"] += 1
        name = answer.raw.get("trace")
        if not isinstance(name, str):
            counts["no_trace"] += 1
            continue
        if item_id not in correct:
            counts["unscored"] += 1
            continue
        trace = read_counted(folder / name, counts, skipped)
        if trace is None:
            continue
        counts["traced"] += 1
        group = "correct" if correct[item_id] else "incorrect"
        for k, values in phase_entropies(trace, markers).items():
            cells[(group, k)].add(values)
            cells[("all", k)].add(values)
    return {
        "run": run.name,
        "trace_dir": str(folder),
        "unit": "nats",
        "markers": markers,
        "bins": bins,
        "items": counts,
        "unreadable_traces": skipped,
        "phases": {g: {str(k): cells[(g, k)].summary() for k in PHASES} for g in GROUPS},
    }


class EntropyParams(BaseModel):
    """Parameters of ``entropy``: trace folder (None: the run's), curve ``bins``, ``turn``, ``markers``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    traces: Path | None = None
    bins: int = Field(default=10, ge=1)
    turn: str | None = None
    markers: str = "paren"


PHASE_KEYS = ("1", "2", "3", "4")


def _bars(doc: dict[str, Any], field: str = "mean") -> tuple[list[str], list[tuple[str, list[Value]]]]:
    """Phase keys and, per group (correct, incorrect), the phases' ``field`` (``mean`` or ``variance``)."""
    phases = doc["phases"]
    keys = [k for k in PHASE_KEYS if k in phases.get("correct", {})]
    return keys, [(g, [phases[g][k][field] for k in keys]) for g in GROUPS[:2] if g in phases]


class EntropyAnalysis(Analysis):
    """``entropy``: token entropy per reasoning phase, correct vs incorrect answers (Sec. 6.2, Fig. 9)."""

    name = "entropy"
    description = "token entropy per reasoning phase of a traced HF run (ReMindView-Bench Fig. 9)"
    title = "Entropy of the reasoning phases"
    version = VERSION
    Params = EntropyParams

    def compute(
        self, run: RunFolder, params: BaseModel, progress: Progress | None = None
    ) -> AnalysisDocument:
        """Pool the token entropies of the run's traces per group and phase (:func:`entropy_study`).

        Raises:
            ValueError: unknown marker style. TraceError: no usable trace folder or no readable trace.
            RunFolderError: the run store or ``items.csv`` cannot be read.
        """
        assert isinstance(params, EntropyParams)
        split("", params.markers)  # an unknown style fails before any trace is read
        folder = trace_folder(run, params.traces)
        fields = entropy_study(run, folder, params.bins, params.turn, params.markers, progress)
        check_traced(folder, fields["items"])
        return self.document(**fields)

    def tables(self, doc: dict[str, Any]) -> list[Grid]:
        """One grid: mean and variance of the token entropy per phase, correct and incorrect (Fig. 9)."""
        keys, means = _bars(doc)
        _, variances = _bars(doc, "variance")
        rows = tuple(
            (f"{g} {what}", tuple(v)) for (g, m), (_, var) in zip(means, variances, strict=True)
            for what, v in (("mean", m), ("variance", var))
        )
        return [Grid(tuple(f"({k})" for k in keys), rows, "Token entropy: mean and variance (Fig. 9)")]

    def figures(self, doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
        """Bars of the mean and of the variance per phase (Fig. 9 shows both), curves over the phases.

        Files: ``folder/entropy``, ``entropy-variance``, ``entropy-curve`` (PNG and SVG).
        """
        from spatialbench import charts  # matplotlib only when drawing

        keys, bars = _bars(doc)
        unit = f"entropy ({doc.get('unit', 'nats')})"
        means = charts.grouped_bars([f"({k})" for k in keys], bars, [], "mean token entropy per phase",
                                    folder / self.name, ylabel=unit, scale=0.0)
        series = []
        for style, group in zip(("o-", "s--"), GROUPS[:2], strict=True):
            xs: list[float] = []
            ys: list[Value] = []
            for n, k in enumerate(keys):
                curve = doc["phases"].get(group, {}).get(k, {}).get("curve") or []
                xs += [n + (j + 0.5) / len(curve) for j in range(len(curve))]
                ys += curve
            series.append((group, xs, ys, style))
        curves = charts.curves(series, "entropy over the phases", folder / f"{self.name}-curve",
                               "phase (1)–(4), relative position within it", unit)
        _, spread = _bars(doc, "variance")
        variances = charts.grouped_bars([f"({k})" for k in keys], spread, [], "variance of token entropy",
                                        folder / f"{self.name}-variance",
                                        ylabel=f"variance ({doc.get('unit', 'nats')}²)", scale=0.0)
        return [DrawnFigure("Mean entropy per phase (Fig. 9)", tuple(means)),
                DrawnFigure("Entropy variance per phase (Fig. 9)", tuple(variances)),
                DrawnFigure("Entropy curves (Fig. 9)", tuple(curves))]


def _stat(cell: dict[str, Any]) -> str:
    if cell["mean"] is None:
        return "-"
    return f"{cell['mean']:.3f} ± {cell['variance']:.3f} ({cell['tokens']})"


def summary_text(doc: dict[str, Any]) -> str:
    """Return per phase the mean ± variance (tokens) of correct / incorrect / all answers, and the counts."""
    rows = tuple((f"({k})", tuple(_stat(doc["phases"][g][k]) for g in GROUPS)) for k in PHASE_KEYS)
    lines = to_markdown(Grid(("correct: mean ± variance (tokens)", "incorrect", "all"), rows))
    lines.append("items: " + ", ".join(f"{k} {v}" for k, v in doc["items"].items()))
    return "\n".join(lines) + "\n" + skipped_line(doc)


ANALYSIS = EntropyAnalysis()
