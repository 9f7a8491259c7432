"""Probes on phase-end representations (ReMindView-Bench Sec. 6.1, Fig. 8), with scikit-learn.

A probe learns the model's final answer (the letter it chose, ``items.csv`` ``extracted``) from the
representation at the end of each reasoning phase: the full-vocabulary logits at the last content token
of the phase (the trace's anchors, :mod:`spatialbench.models.hf_trace`; phase (4)'s is the answer's last
content token), or with ``features="hidden:J"`` the hidden state of the trace's J-th stored layer there.
``mlp`` is the paper's 4-hidden-layer MLP (``MLPClassifier``, layers ``hidden``), ``linear`` a logistic
regression baseline; features are standardised on the training split. Items are split by scene
(``GroupShuffleSplit``: no scene in both splits; seeded), so a probe cannot pass by recognising a scene.

Reported per phase on the test split: accuracy and cross-entropy (nats; a class the training split never
saw has probability 1e-15), overall and for items the model answered correctly / incorrectly, and the
majority-class accuracy of the test split as the chance line.

Memory: logit features keep only ``max_features`` vocabulary columns, those most often among the 32
largest anchor logits over all items (chosen in a first pass over the traces), so N items cost
N × max_features × 4 bytes per phase whatever the vocabulary size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

EPSILON = 1e-15


@dataclass(frozen=True)
class ProbeData:
    """One phase's probe inputs: ``features`` (N, D), ``labels`` (N,), ``groups`` (N,) scenes, ``correct``."""

    features: NDArray[np.float32]
    labels: NDArray[np.str_]
    groups: NDArray[np.str_]
    correct: NDArray[np.bool_]


PROBE_KINDS = ("mlp", "linear")


def check_options(kind: str, test_size: float) -> None:
    """Check the probe options before any trace is read.

    Raises:
        ValueError: ``kind`` not in :data:`PROBE_KINDS`, or ``test_size`` not strictly between 0 and 1.
    """
    if kind not in PROBE_KINDS:
        raise ValueError(f"--probe must be one of {', '.join(PROBE_KINDS)}, got {kind!r}")
    if not 0 < test_size < 1:
        raise ValueError(f"--test-size must be a share strictly between 0 and 1, got {test_size}")


def make_probe(kind: str, seed: int, hidden: tuple[int, ...] = (256, 128, 64, 32)) -> Any:
    """Return an unfitted scikit-learn pipeline: standardise, then ``mlp`` (4 hidden layers) or ``linear``.

    Raises:
        ValueError: unknown ``kind``.
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    if kind == "mlp":
        model: Any = MLPClassifier(hidden_layer_sizes=hidden, max_iter=500, random_state=seed)
    elif kind == "linear":
        model = LogisticRegression(max_iter=2000)
    else:
        raise ValueError(f"probe kind must be mlp or linear, got {kind!r}")
    return make_pipeline(StandardScaler(), model)


def scene_split(
    groups: NDArray[np.str_], test_size: float, seed: int
) -> tuple[NDArray[np.int_], NDArray[np.int_]]:
    """Return (train, test) indices with every scene on one side (``GroupShuffleSplit``, seeded)."""
    from sklearn.model_selection import GroupShuffleSplit

    splitter = GroupShuffleSplit(n_splits=1, test_size=test_size, random_state=seed)
    train, test = next(splitter.split(np.zeros(len(groups)), groups=groups))
    return train, test


def _scores(
    probabilities: NDArray[np.float64], classes: NDArray[Any], labels: NDArray[Any]
) -> dict[str, Any]:
    if not len(labels):
        return {"items": 0, "accuracy": None, "cross_entropy": None}
    column = {c: i for i, c in enumerate(classes)}
    truth = np.array([probabilities[n, column[y]] if y in column else 0.0 for n, y in enumerate(labels)])
    predicted = classes[probabilities.argmax(axis=1)]
    return {
        "items": int(len(labels)),
        "accuracy": float((predicted == labels).mean()),
        "cross_entropy": float(-np.log(np.clip(truth, EPSILON, 1.0)).mean()),
    }


def probe_phase(data: ProbeData, kind: str = "mlp", seed: int = 0, test_size: float = 0.25) -> dict[str, Any]:
    """Train a probe on the training scenes and score it on the test scenes (module docstring).

    Returns ``{"train", "test", "chance", "test_index", "all", "correct", "incorrect"}``: split sizes,
    majority-class test accuracy, the test indices, and accuracy / cross-entropy per group. With one class
    only in the training split the probe is not trained (scores None).
    """
    train, test = scene_split(data.groups, test_size, seed)
    out: dict[str, Any] = {"train": int(len(train)), "test": int(len(test)), "test_index": test.tolist()}
    counts = Counter(data.labels[test].tolist())
    out["chance"] = max(counts.values()) / len(test) if len(test) else None
    if len(set(data.labels[train].tolist())) < 2:
        empty = {"items": int(len(test)), "accuracy": None, "cross_entropy": None}
        return {**out, "all": empty, "correct": empty, "incorrect": empty, "note": "one class in training"}
    probe = make_probe(kind, seed).fit(data.features[train], data.labels[train])
    probabilities = probe.predict_proba(data.features[test])
    classes = probe.classes_
    labels, correct = data.labels[test], data.correct[test]
    out["all"] = _scores(probabilities, classes, labels)
    out["correct"] = _scores(probabilities[correct], classes, labels[correct])
    out["incorrect"] = _scores(probabilities[~correct], classes, labels[~correct])
    return out


def select_columns(anchor_rows: Iterable[NDArray[np.float16]], max_features: int) -> NDArray[np.int_]:
    """Return the vocabulary columns most often among the 32 largest logits of the anchor rows (streamed)."""
    counts: Counter[int] = Counter()
    for rows in anchor_rows:
        for row in np.atleast_2d(rows):
            counts.update(np.argsort(-row.astype(np.float32))[:32].tolist())
    return np.array(sorted(c for c, _ in counts.most_common(max_features)), dtype=np.int_)
