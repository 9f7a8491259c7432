"""Compact per-item generation traces of local Hugging Face runs, one ``.npz`` file per answer.

ReMindView-Bench Sec. 6 analyses the latent states of generated tokens (entropy dynamics, probes on
phase-end logits). The official code writes every full-vocabulary logit row as JSON; here an answer of T
tokens keeps, in ``<trace_dir>/<sha256 of the arrays>.npz`` (the name goes in the result row's
``raw.trace``):

============== =============== =====================================================================
array          shape, dtype    meaning
============== =============== =====================================================================
token_ids      (T,) int32      generated tokens
pieces         (T,) str        each token decoded alone (special tokens as "")
offsets        (T,) int32      character offset of each piece in the concatenated pieces
entropy        (T,) float32    exact Shannon entropy (nats) of softmax over the full vocabulary (float64)
logsumexp      (T,) float32    log of the softmax normaliser (so top-k logits give probabilities)
topk_ids       (T, k) int32    the k largest logits' token ids, largest first
topk_logits    (T, k) float16  their raw logits
anchors        (A,) int32      steps whose full logits are kept: the last content token before each match
                               of the anchor pattern (phase markers ``(k)``) and the last content token
anchor_logits  (A, V) float16  full-vocabulary logits at the anchors (the probe features, Sec. 6.1)
anchor_hidden  (A, L, H) f16   hidden states of the chosen layers at the anchors (empty if none chosen)
version        () int          :data:`TRACE_VERSION`
============== =============== =====================================================================

Memory is bounded per item: the full (T, V) logits of one answer live only while it is compacted, so a
5,000-item run holds one answer's logits at a time; on disk an answer costs about T·k·6 + A·V·2 bytes
(Qwen2.5-VL, V = 151,936: 5 anchors ≈ 1.5 MB, 2,000 tokens at k = 20 ≈ 240 kB, before compression).
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

TRACE_VERSION = 1
DEFAULT_ANCHOR = r"\(\s*[1-9]\s*\)"


@dataclass(frozen=True)
class TraceSettings:
    """Where and how much to keep: ``folder``, ``top_k`` logits per step, anchor regex, hidden ``layers``.

    ``layers`` index ``GenerationTrace.hidden_states``' layer axis (0 = embeddings, -1 = last layer).
    """

    folder: Path
    top_k: int = 20
    anchor: str = DEFAULT_ANCHOR
    layers: tuple[int, ...] = ()


def is_content(piece: str) -> bool:
    """Return True for a token that holds a letter or digit (others: whitespace/punctuation, skipped)."""
    return any(ch.isalnum() for ch in piece)


def entropy(logits: NDArray[np.floating]) -> NDArray[np.float64]:
    """Shannon entropy in nats of softmax over the last axis, computed in float64; (..., V) → (...)."""
    z = logits.astype(np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    total = p.sum(axis=-1, keepdims=True)
    p = p / total
    log_p = z - np.log(total)
    return -(p * np.where(p > 0, log_p, 0.0)).sum(axis=-1)


def _logsumexp(logits: NDArray[np.floating]) -> NDArray[np.float64]:
    z = logits.astype(np.float64)
    top = z.max(axis=-1)
    return top + np.log(np.exp(z - top[:, None]).sum(axis=-1))


def anchor_steps(pieces: list[str], pattern: str) -> list[int]:
    """Return the steps of the last content token before each ``pattern`` match and of the last one."""
    offsets = np.cumsum([0] + [len(p) for p in pieces])[:-1]
    text = "".join(pieces)
    content = [i for i, piece in enumerate(pieces) if is_content(piece)]
    ends = [m.start() for m in re.finditer(pattern, text)] + [len(text)]
    steps = set()
    for end in ends:
        before = [i for i in content if offsets[i] < end]
        if before:
            steps.add(before[-1])
    return sorted(steps)


def compact(
    token_ids: NDArray[np.int64],
    logits: NDArray[np.float32],
    pieces: list[str],
    settings: TraceSettings,
    hidden_states: NDArray[np.float32] | None = None,
) -> dict[str, NDArray[np.generic]]:
    """Return one answer's trace arrays (module table); ``logits`` (T, V), ``hidden_states`` (T, L+1, H)."""
    k = min(settings.top_k, logits.shape[1])
    top = np.argsort(-logits, axis=1, kind="stable")[:, :k]
    anchors = np.array(anchor_steps(pieces, settings.anchor), dtype=np.int32)
    if hidden_states is not None and settings.layers:
        hidden = hidden_states[anchors][:, list(settings.layers)].astype(np.float16)
    else:
        hidden = np.zeros((len(anchors), 0, 0), dtype=np.float16)
    return {
        "version": np.array(TRACE_VERSION),
        "token_ids": token_ids.astype(np.int32),
        "pieces": np.array(pieces, dtype=str),
        "offsets": np.cumsum([0] + [len(p) for p in pieces])[:-1].astype(np.int32),
        "entropy": entropy(logits).astype(np.float32),
        "logsumexp": _logsumexp(logits).astype(np.float32),
        "topk_ids": top.astype(np.int32),
        "topk_logits": np.take_along_axis(logits, top, axis=1).astype(np.float16),
        "anchors": anchors,
        "anchor_logits": logits[anchors].astype(np.float16),
        "anchor_hidden": hidden,
    }


def write_trace(folder: Path, arrays: dict[str, NDArray[np.generic]]) -> str:
    """Write ``arrays`` compressed to ``folder/<sha256>.npz`` (atomically) and return the file name."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    data = buffer.getvalue()
    name = hashlib.sha256(data).hexdigest()[:32] + ".npz"
    folder.mkdir(parents=True, exist_ok=True)
    part = folder / (name + ".part")
    part.write_bytes(data)
    part.replace(folder / name)
    return name


def read_trace(path: Path) -> dict[str, NDArray[np.generic]]:
    """Read a trace file (all arrays loaded; ``pieces`` as str).

    Raises:
        ValueError: not a trace file of this version, an array of the module table missing, or arrays of
            one length (T or A) that differ (the message names the file and the arrays).
        OSError: unreadable.
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path}: not a trace file ({exc})") from None
    if int(arrays.get("version", -1)) != TRACE_VERSION:
        raise ValueError(f"{path}: trace version {arrays.get('version')}, expected {TRACE_VERSION}")
    _check_shapes(path, arrays)
    return arrays


STEP_ARRAYS = ("token_ids", "pieces", "offsets", "entropy", "logsumexp", "topk_ids", "topk_logits")
"""The arrays with one row per generated token (T; module table)."""
ANCHOR_ARRAYS = ("anchors", "anchor_logits", "anchor_hidden")
"""The arrays with one row per anchor (A; module table)."""


def _check_shapes(path: Path, arrays: dict[str, NDArray[np.generic]]) -> None:
    """Raise ValueError naming ``path`` and the arrays when one is missing or the lengths disagree."""
    missing = [k for k in (*STEP_ARRAYS, *ANCHOR_ARRAYS) if k not in arrays]
    if missing:
        raise ValueError(f"{path}: not a complete trace (no {', '.join(missing)} array)")
    for group, unit in ((STEP_ARRAYS, "tokens"), (ANCHOR_ARRAYS, "anchors")):
        lengths = {k: len(arrays[k]) if arrays[k].ndim else 0 for k in group}
        if len(set(lengths.values())) > 1:
            found = ", ".join(f"{k} {n}" for k, n in lengths.items())
            raise ValueError(f"{path}: arrays of different lengths ({unit}: {found})")
    steps, anchors = len(arrays["pieces"]), arrays["anchors"]
    inside = anchors.size == 0 or (int(anchors.min()) >= 0 and int(anchors.max()) < steps)
    if arrays["anchor_logits"].ndim != 2 or not inside:
        raise ValueError(f"{path}: anchors outside the {steps} tokens, or anchor_logits not (A, V)")
