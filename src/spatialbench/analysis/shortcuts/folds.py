"""Fold plans and per-fold random forests of the stress-test.

As the official ``UnifiedCrossValidator`` / ``RandomForestEvaluator``: label encoding fitted on the
training fold, unseen categories -> -1.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.model_selection import GroupKFold, KFold, StratifiedKFold

from spatialbench.scoring.metrics import mra_array

FOLD_KINDS = ("random", "grouped")


def fold_plan(
    frame: pd.DataFrame, kind: str, k: int, seed: int, format: str
) -> list[tuple[NDArray, NDArray]]:
    """``(train, test)`` positional indices of ``frame``'s rows for each of ``k`` folds.

    ``random``: the official splitters (``StratifiedKFold`` on ``gt_idx`` for multiple choice, ``KFold``
    for numbers; shuffled with ``seed``). ``grouped``: ``GroupKFold`` by ``scene`` (no scene on both sides).
    """
    if kind == "grouped":
        return list(GroupKFold(n_splits=k).split(frame, groups=frame["scene"]))
    if format == "mc":
        with warnings.catch_warnings():
            # A gold index with fewer than k questions cannot be in every fold, and sklearn says so on
            # each call (13 times in one debias). Accepted knowingly: the folds are still k valid folds,
            # the official code's own (it uses the same splitter), and such a question's s(x) is 0 when
            # its gold never occurs in the training fold (forest_scores). The split runs here, inside.
            warnings.filterwarnings("ignore", "The least populated class in y has only", UserWarning)
            splitter = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
            return list(splitter.split(frame, frame["gt_idx"]))
    return list(KFold(n_splits=k, shuffle=True, random_state=seed).split(frame))


def encode(train: pd.DataFrame, test: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Encode text columns as codes of the training fold's sorted classes (``LabelEncoder``); unseen: -1."""
    train, test = train.copy(), test.copy()
    for column in train.columns:
        if not pd.api.types.is_numeric_dtype(train[column]):
            # str() of every value, missing ones included ("nan"), as LabelEncoder on astype(str) did
            seen, held = [str(v) for v in train[column]], [str(v) for v in test[column]]
            codes = {value: i for i, value in enumerate(sorted(set(seen)))}
            train[column] = [codes[v] for v in seen]
            test[column] = [codes.get(v, -1) for v in held]
    return train, test


def forest_scores(
    x_train: pd.DataFrame,
    train: pd.DataFrame,
    x_test: pd.DataFrame,
    test: pd.DataFrame,
    format: str,
    seed: int,
    n_jobs: int,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Fit one forest; return (hit per test row, s(x) per test row), both shape (n_test,), in [0, 1].

    Multiple choice: hit = predicted index equals ``gt_idx``; s(x) = the forest's P(gold) (0 when the gold
    index never occurs in the training fold). Numbers: hit = s(x) = MRA of the prediction (strict ``<``, as
    the official TsT ``mean_relative_accuracy``).
    """
    if format == "mc":
        clf = RandomForestClassifier(n_estimators=100, random_state=seed, n_jobs=n_jobs)
        clf.fit(x_train, train["gt_idx"].to_numpy())
        proba = clf.predict_proba(x_test)
        column = {int(c): i for i, c in enumerate(clf.classes_)}
        gold = test["gt_idx"].to_numpy()
        s = np.array([proba[r, column[g]] if g in column else 0.0 for r, g in enumerate(gold)])
        hits = (clf.classes_[proba.argmax(axis=1)] == gold).astype(float)
        return hits, s
    reg = RandomForestRegressor(n_estimators=200, random_state=seed, n_jobs=n_jobs)
    reg.fit(x_train, train["gt_num"].to_numpy())
    mra = mra_array(reg.predict(x_test), test["gt_num"].to_numpy(), mode="paper")
    return mra, mra


def constant_baseline(train: pd.DataFrame, test: pd.DataFrame, format: str) -> NDArray[np.float64]:
    """Chance per test row: 1/options for multiple choice; MRA of the training fold's mean for numbers."""
    if format == "mc":
        return 1.0 / test["options"].map(len).to_numpy(dtype=float)
    guess = np.full(len(test), float(train["gt_num"].mean()))
    return mra_array(guess, test["gt_num"].to_numpy(), mode="paper")
