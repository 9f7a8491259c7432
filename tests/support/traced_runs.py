"""Hand-made traced run folders: a run store whose answers name trace files, config.json and items.csv.

Traces are one token per character (``compact`` of the given logits), so a test knows every token's phase.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from spatialbench.models.hf_trace import TraceSettings, compact, write_trace
from spatialbench.records.messages import Response
from spatialbench.runs.store import RunStore


def char_trace(
    text: str,
    logits: np.ndarray | None = None,
    entropies: list[float] | None = None,
    hidden: np.ndarray | None = None,
) -> dict:
    """Return trace arrays of ``text``, one token per character (vocabulary: its sorted characters).

    ``hidden``: (T, L + 1, H) hidden states; every layer is kept at the anchors.
    """
    pieces = list(text)
    vocab = sorted(set(pieces))
    ids = np.array([vocab.index(p) for p in pieces], dtype=np.int64)
    if logits is None:
        logits = np.zeros((len(pieces), len(vocab)), dtype=np.float32)
    layers = () if hidden is None else tuple(range(hidden.shape[1]))
    settings = TraceSettings(Path("."), top_k=2, layers=layers)
    arrays = compact(ids, logits.astype(np.float32), pieces, settings, hidden)
    if entropies is not None:
        arrays["entropy"] = np.array(entropies, dtype=np.float32)
    return arrays


def write_traced_run(
    run_dir: Path,
    traces: Path,
    rows: dict[str, tuple[dict, str, float]],
    benchmark: str = "remindview",
    data: str = ".",
) -> Path:
    """Write a scored run: ``rows`` maps item id → (trace arrays, extracted answer, score)."""
    store = RunStore(run_dir / "run.sqlite", secrets=[])
    lines = ["id,task,score,extracted"]
    for item, (arrays, extracted, score) in rows.items():
        name = write_trace(traces, arrays)
        store.put(f"key-{item}", item, {}, Response(text="".join(arrays["pieces"]), raw={"trace": name}))
        lines.append(f"{item},t,{score},{extracted}")
    store.close()
    config = {"data": {"benchmark": benchmark, "path": data}, "model": {"name": "hf:x"}}
    (run_dir / "config.json").write_text(
        json.dumps({"config": config, "backend": {"trace_dir": str(traces)}})
    )
    (run_dir / "items.csv").write_text("\n".join(lines) + "\n")
    return run_dir
