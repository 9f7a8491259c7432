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
run size); items without a trace or with an unreadable one are counted, not fatal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from spatialbench.analysis.phases import PHASES, split
from spatialbench.analysis.stored import correct_items, stored_answers
from spatialbench.models.hf_trace import is_content, read_trace
from spatialbench.runs.folder import RunFolder

VERSION = 1
GROUPS = ("correct", "incorrect", "all")


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


def trace_folder(run: RunFolder, given: Path | None) -> Path | None:
    """Return the trace folder: ``given``, else the ``trace_dir`` the run's back end recorded (None: none).

    Raises:
        ValueError: that folder is not a directory (the message names it).
    """
    folder = given if given is not None else _recorded_trace_dir(run)
    if folder is not None and not folder.is_dir():
        raise ValueError(f"{folder}: not a trace folder (no such directory); give --traces DIR")
    return folder


def _recorded_trace_dir(run: RunFolder) -> Path | None:
    import json

    try:
        record = json.loads((run.path / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    folder = (record.get("backend") or {}).get("trace_dir")
    return Path(folder) if folder else None


def entropy_study(
    run: RunFolder,
    traces: Path | None = None,
    bins: int = 10,
    turn: str | None = None,
    markers: str = "paren",
) -> dict[str, Any]:
    """Return the entropy document of ``run`` (module docstring), written by ``spatialbench entropy``.

    ``markers``: the phase marker style (:data:`spatialbench.analysis.phases.MARKERS`).

    Raises:
        ValueError: unknown marker style, or the trace folder is not a directory.
        RunFolderError: the run store cannot be read.
    """
    split("", markers)  # an unknown style fails before any trace is read
    folder = trace_folder(run, traces)
    cells = {(g, k): _Moments(bins) for g in GROUPS for k in PHASES}
    counts = {"answers": 0, "traced": 0, "no_trace": 0, "unreadable": 0, "unscored": 0}
    correct = correct_items(run)
    for item_id, answer in stored_answers(run, turn).items():
        counts["answers"] += 1
        name = answer.raw.get("trace")
        if not isinstance(name, str) or folder is None:
            counts["no_trace"] += 1
            continue
        if item_id not in correct:
            counts["unscored"] += 1
            continue
        try:
            trace = read_trace(folder / name)
        except (OSError, ValueError):
            counts["unreadable"] += 1
            continue
        counts["traced"] += 1
        group = "correct" if correct[item_id] else "incorrect"
        for k, values in phase_entropies(trace, markers).items():
            cells[(group, k)].add(values)
            cells[("all", k)].add(values)
    return {
        "analysis": "entropy",
        "version": VERSION,
        "run": run.name,
        "trace_dir": None if folder is None else str(folder),
        "unit": "nats",
        "markers": markers,
        "bins": bins,
        "items": counts,
        "phases": {g: {str(k): cells[(g, k)].summary() for k in PHASES} for g in GROUPS},
    }
