"""Probes on phase-end representations (ReMindView-Bench Sec. 6.1, Fig. 8), with scikit-learn.

A probe learns the model's final answer (the letter it chose, ``items.csv`` ``extracted``) from the
representation at the end of each reasoning phase: the full-vocabulary logits at the last content token
of the phase (the trace's anchors, :mod:`spatialbench.models.hf_trace`; phase (4)'s is the answer's last
content token), or with ``features="hidden:J"`` the hidden state of the trace's J-th stored layer there.
``mlp`` is the paper's 4-hidden-layer MLP (``MLPClassifier``, layers ``hidden``), ``linear`` a logistic
regression baseline; features are standardised on the training split. Items are split by scene
(``GroupShuffleSplit``: no scene in both splits; seeded), so a probe cannot pass by recognising a scene.

Fig. 8's own analysis (``answer_logits``): "the cross-entropy loss between the probe's predicted logits and
the VLM's answer logits on the test set". The target is soft: the VLM's logits at the answer (phase (4)'s
anchor) over the kept logit columns; a probe of the same depth (``MLPRegressor``; ridge for ``linear``)
predicts them from each phase's representation and the test cross-entropy ``-sum softmax(answer) ·
log softmax(predicted)`` is reported per phase, all / correct / incorrect (:func:`soft_cross_entropy`).
"4-layer MLP" is read as four hidden layers (256, 128, 64, 32).

Also reported per phase on the test split (the hard-label probe of the extracted letter): accuracy and
cross-entropy (nats; a class the training split never
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
    """One phase's probe inputs: ``features`` (N, D), ``labels`` (N,), ``groups`` (N,) scenes, ``correct``.

    ``answers`` (N, K): the VLM's answer logits of each item (phase (4)'s anchor, the kept logit columns),
    the soft target of the Fig. 8 cross-entropy; None when the traces give none.
    """

    features: NDArray[np.float32]
    labels: NDArray[np.str_]
    groups: NDArray[np.str_]
    correct: NDArray[np.bool_]
    answers: NDArray[np.float32] | None = None


def soft_cross_entropy(predicted: NDArray[np.floating], target: NDArray[np.floating]) -> NDArray[np.float64]:
    """Per-row cross-entropy (nats) of the probe's predicted logits against the VLM's answer logits.

    ``H(p, q) = -sum_j p_j log q_j`` with ``p = softmax(target)`` (the VLM's answer distribution over the
    kept columns) and ``q = softmax(predicted)`` (ReMindView-Bench Sec. 6.1: "the cross-entropy loss between
    the probe's predicted logits and the VLM's answer logits"). Both (N, K); returns (N,).
    """
    from scipy.special import log_softmax, softmax

    p = softmax(np.asarray(target, dtype=np.float64), axis=1)
    return -(p * log_softmax(np.asarray(predicted, dtype=np.float64), axis=1)).sum(axis=1)


PROBE_KINDS = ("mlp", "linear")


HIDDEN = (256, 128, 64, 32)
"""The ``mlp`` probe's hidden layers: the paper's "4-layer MLP" read as four hidden layers (Sec. 6.1)."""


def check_options(kind: str, test_size: float) -> None:
    """Check the probe options before any trace is read.

    Raises:
        ValueError: ``kind`` not in :data:`PROBE_KINDS`, or ``test_size`` not strictly between 0 and 1.
    """
    if kind not in PROBE_KINDS:
        raise ValueError(f"--probe must be one of {', '.join(PROBE_KINDS)}, got {kind!r}")
    if not 0 < test_size < 1:
        raise ValueError(f"--test-size must be a share strictly between 0 and 1, got {test_size}")


def make_probe(kind: str, seed: int, hidden: tuple[int, ...] = HIDDEN) -> Any:
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
    """Return (train, test) indices with every scene on one side (``GroupShuffleSplit``, seeded).

    Raises:
        ValueError: fewer than 2 scenes (one line saying so, not scikit-learn's empty-train-set text).
    """
    from sklearn.model_selection import GroupShuffleSplit

    scenes = len(set(groups.tolist()))
    if scenes < 2:
        raise ValueError(
            f"all {len(groups)} items are from {scenes} scene{'' if scenes == 1 else 's'}; "
            "a split by scene needs ≥ 2 scenes"
        )

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

    Returns ``{"train", "test", "chance", "test_index", "answer_logits", "all", "correct", "incorrect"}``:
    the Fig. 8 cross-entropy against the answer logits (:func:`answer_logit_ce`), split sizes,
    majority-class test accuracy, the test indices, and accuracy / cross-entropy per group. With one class
    only in the training split the probe is not trained (scores None).
    """
    train, test = scene_split(data.groups, test_size, seed)
    out: dict[str, Any] = {"train": int(len(train)), "test": int(len(test)), "test_index": test.tolist()}
    counts = Counter(data.labels[test].tolist())
    out["chance"] = max(counts.values()) / len(test) if len(test) else None
    out["answer_logits"] = answer_logit_ce(data, train, test, kind, seed)
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


def make_regressor(kind: str, seed: int, hidden: tuple[int, ...] = HIDDEN) -> Any:
    """Return an unfitted pipeline from features to answer logits: standardise, then ``mlp`` or ``linear``.

    ``mlp``: ``MLPRegressor`` with the 4 hidden layers of :func:`make_probe` (the paper's "4-layer MLP"
    read as four hidden layers); ``linear``: ridge regression.
    """
    from sklearn.linear_model import Ridge
    from sklearn.neural_network import MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    model: Any = MLPRegressor(hidden_layer_sizes=hidden, max_iter=500, random_state=seed) if kind == "mlp" \
        else Ridge(alpha=1.0)
    return make_pipeline(StandardScaler(), model)


def answer_logit_ce(
    data: ProbeData, train: NDArray[np.int_], test: NDArray[np.int_], kind: str, seed: int
) -> dict[str, Any] | None:
    """Fig. 8's analysis: a probe predicts the VLM's answer logits; test CE (:func:`soft_cross_entropy`).

    Returns {group: {"items", "cross_entropy"}} for ``all`` / ``correct`` / ``incorrect``, or None without
    answer logits or with fewer than 2 training items.
    """
    if data.answers is None or len(train) < 2 or not len(test):
        return None
    regressor = make_regressor(kind, seed).fit(data.features[train], data.answers[train])
    ce = soft_cross_entropy(regressor.predict(data.features[test]), data.answers[test])
    correct = data.correct[test]
    groups = {"all": np.ones(len(test), dtype=bool), "correct": correct, "incorrect": ~correct}
    return {
        g: {"items": int(m.sum()), "cross_entropy": float(ce[m].mean()) if m.any() else None}
        for g, m in groups.items()
    }


def select_columns(anchor_rows: Iterable[NDArray[np.float16]], max_features: int) -> NDArray[np.int_]:
    """Return the vocabulary columns most often among the 32 largest logits of the anchor rows (streamed)."""
    counts: Counter[int] = Counter()
    for rows in anchor_rows:
        for row in np.atleast_2d(rows):
            counts.update(np.argsort(-row.astype(np.float32))[:32].tolist())
    return np.array(sorted(c for c, _ in counts.most_common(max_features)), dtype=np.int_)
