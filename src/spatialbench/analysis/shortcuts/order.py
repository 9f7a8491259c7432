"""TsT-RF features of appearance order (the official ``ObjOrderModel``, its leak-free default columns).

Each option is a sequence of four objects. From the training fold's *gold* sequences three maps are
counted and min-max scaled (all ones when every count is equal): (object, position), adjacent pairs, and
ordered pairs at any distance. Each option then scores the sum of its entries in each map
(``seq_{i}_pos_score``, ``seq_{i}_pair_score``, ``seq_{i}_comb_pair_score``) and their mean
(``seq_{i}_score``); the option sequences themselves (``opt_seq_{1..4}``, joined by "|") are text features.
The official code also computes the gold option's scores and margins: those read the label and are not
among its default columns, nor here.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise

import numpy as np
import pandas as pd
from sklearn.preprocessing import minmax_scale

from spatialbench.analysis.shortcuts.features import FeatureSet, Maps

_N = 4
_PARTS = ("pos_", "pair_", "comb_pair_", "")
_SEQS = tuple(f"opt_seq_{i + 1}" for i in range(_N))


def _keys(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    for i, column in enumerate(_SEQS):
        out[column] = out["options"].map(lambda texts, i=i: texts[i].split(", ") if len(texts) > i else [])
    return out


def _scaled(counter: Counter) -> dict[object, float]:
    if not counter:
        return {}
    values = np.array(list(counter.values()), dtype=float).reshape(-1, 1)
    scaled = minmax_scale(values) if len(np.unique(values)) > 1 else np.ones_like(values)
    return {key: float(scaled[i][0]) for i, key in enumerate(counter)}


def _fit(train: pd.DataFrame) -> Maps:
    gold = [str(v).split(", ") for v in train["gt_val"]]
    positions = Counter((obj, pos + 1) for seq in gold for pos, obj in enumerate(seq[:_N]))
    adjacent = Counter(pair for seq in gold for pair in pairwise(seq[:_N]))
    ordered = Counter(pair for seq in gold for pair in combinations(seq[:_N], 2))
    return {"pos": _scaled(positions), "pair": _scaled(adjacent), "comb": _scaled(ordered)}


def _scores(maps: Maps, seq: list[str]) -> tuple[float, float, float, float]:
    pos = sum(maps["pos"].get((obj, j + 1), 0.0) for j, obj in enumerate(seq))
    pair = sum(maps["pair"].get(p, 0.0) for p in pairwise(seq))
    comb = sum(maps["comb"].get(p, 0.0) for p in combinations(seq, 2))
    return pos, pair, comb, (pos + pair + comb) / 3.0


def _transform(maps: Maps, frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    for i, column in enumerate(_SEQS):
        parts = np.array([_scores(maps, seq) for seq in frame[column]]).reshape(-1, len(_PARTS))
        for j, part in enumerate(_PARTS):
            out[f"seq_{i}_{part}score"] = parts[:, j]
        out[column] = frame[column].map("|".join)
    return out


APPEARANCE_ORDER = FeatureSet(
    "obj_appearance_order",
    "mc",
    (*_SEQS, *(f"seq_{i}_{part}score" for i in range(_N) for part in _PARTS)),
    _keys,
    _fit,
    _transform,
)
