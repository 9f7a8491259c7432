"""TsT-RF feature sets, one per question type, with the official TsT code's feature names.

A feature set reads only the question text and options of the rows it describes (``keys``) and label
statistics of the *training fold* (``fit``); ``transform`` must not read a row's own label columns
(:data:`spatialbench.analysis.shortcuts.table.LABEL_COLUMNS`) — the leak check verifies it.
Names and statistics follow the official ``TsT/benchmarks/vsi/models.py`` (leak-free default columns);
the official relative-distance set also reads the row's gold object, which is a leak: it is kept as
:data:`.sets.LEAKY_FEATURE_SETS` ``["object_rel_distance"]`` for parity and for the leak check's own test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd
from sklearn.preprocessing import minmax_scale

_EPS = 1e-6
Maps = dict[str, Any]


@dataclass(frozen=True)
class FeatureSet:
    """One question type's features.

    Attributes:
        name: the question type it describes (``"*"`` for the generic sets).
        format: ``"mc"`` (random-forest classifier on ``gt_idx``) or ``"num"`` (regressor on ``gt_num``).
        columns: the feature columns, in the official order; text columns are label-encoded per fold.
        keys: adds the text-derived key columns (objects, pairs) to a question table; reads no label.
        fit: the training fold -> its statistics (may read labels).
        transform: statistics, rows -> the rows with ``columns`` added.
    """

    name: str
    format: str
    columns: tuple[str, ...]
    keys: Callable[[pd.DataFrame], pd.DataFrame]
    fit: Callable[[pd.DataFrame], Maps]
    transform: Callable[[Maps, pd.DataFrame], pd.DataFrame]


def with_slots(frame: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """Take each key column from the row's generator slots where the row has that slot.

    A generated benchmark stores the objects and roles each question was drawn with
    (``metadata["slots"]``, the ``slots`` column of :func:`.table.question_table`); those, not the
    question text, are its keys. Rows without the slot keep the key parsed from the text.
    """
    if "slots" not in frame.columns:
        return frame
    out = frame.copy()
    for name in names:
        given = out["slots"].map(lambda slots, key=name: slots.get(key) if isinstance(slots, dict) else None)
        out[name] = given.where(given.notna(), out[name]) if name in out.columns else given
    return out


def _extract(
    pattern: str, names: list[str], clean: Callable[[pd.Series], pd.Series] = lambda s: s.str.strip()
) -> Callable[[pd.DataFrame], pd.DataFrame]:
    def keys(frame: pd.DataFrame) -> pd.DataFrame:
        out = frame.copy()
        found = out["question"].str.extract(pattern)
        for i, name in enumerate(names):
            out[name] = clean(found[i])
        return with_slots(out, names)

    return keys


def _pair_keys(frame: pd.DataFrame) -> pd.DataFrame:
    names = ["object_1", "object_2"]  # the generator's slot names of the pair
    out = _extract(r"between the (.*?) and the (.*?)(?: \(in meters\))?\?$", names)(frame)
    out["object_pair"] = [
        "_".join(sorted([a, b])) if isinstance(a, str) and isinstance(b, str) else None
        for a, b in zip(out["object_1"], out["object_2"], strict=True)
    ]
    return out.drop(columns=names)


def _global(train: pd.DataFrame) -> Maps:
    return {"global_mean_log": train["log_gt"].mean(), "global_std_log": train["log_gt"].std()}


def _value_stats(train: pd.DataFrame, key: str, prefix: str, raw: bool) -> pd.DataFrame:
    grouped = train.groupby(key)
    stats = pd.DataFrame({f"{prefix}_count": grouped["id"].count()})
    if raw:
        stats[f"{prefix}_val_mean"] = grouped["gt_num"].mean()
        stats[f"{prefix}_val_std"] = grouped["gt_num"].std().fillna(0)
    name = "val_log" if prefix == "obj" else "val"
    log_mean, log_std = (
        (f"{prefix}_{name}_mean", f"{prefix}_{name}_std")
        if prefix == "obj"
        else (f"{prefix}_val_mean_log", f"{prefix}_val_std_log")
    )
    stats[log_mean] = grouped["log_gt"].mean()
    stats[log_std] = grouped["log_gt"].std().fillna(0)
    return stats


def _merge(frame: pd.DataFrame, stats: pd.DataFrame, key: str) -> pd.DataFrame:
    return frame.join(stats, on=key)


def _counting_fit(train: pd.DataFrame) -> Maps:
    return {**_global(train), "stats": _value_stats(train, "object", "obj", raw=True)}


def _with_global(maps: Maps, frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    out["global_mean_log"] = maps["global_mean_log"]
    out["global_std_log"] = maps["global_std_log"]
    return out


def _counting(maps: Maps, frame: pd.DataFrame) -> pd.DataFrame:
    return _merge(_with_global(maps, frame), maps["stats"], "object")


def _distance_fit(train: pd.DataFrame) -> Maps:
    return {"stats": _value_stats(train, "object_pair", "pair", raw=False)}


def _distance(maps: Maps, frame: pd.DataFrame) -> pd.DataFrame:
    out = _merge(frame, maps["stats"], "object_pair")
    out["pair_freq_score"] = minmax_scale(out["pair_count"])
    ratio = (out["pair_val_std_log"] / (out["pair_val_mean_log"] + _EPS)).fillna(0)
    out["pair_inv_var_score"] = 1.0 - minmax_scale(ratio + _EPS)
    return out


def _size_fit(train: pd.DataFrame) -> Maps:
    stats = _value_stats(train, "object", "obj", raw=True)
    stats["obj_val_log_ratio"] = (stats["obj_val_log_std"] / (stats["obj_val_log_mean"] + _EPS)).fillna(0)
    return {"stats": stats}


def _size(maps: Maps, frame: pd.DataFrame) -> pd.DataFrame:
    out = _merge(frame, maps["stats"], "object")
    out["obj_freq_score"] = minmax_scale(out["obj_count"])
    out["obj_val_log_ratio"] = 1.0 - minmax_scale(out["obj_val_log_ratio"] + _EPS)
    return out


NUMBER_SETS = [
    FeatureSet(
        "object_counting",
        "num",
        (
            "global_mean_log",
            "global_std_log",
            "object",
            "obj_count",
            "obj_val_mean",
            "obj_val_std",
            "obj_val_log_mean",
            "obj_val_log_std",
        ),
        _extract(r"How many (.*?)\(s\) are in this room", ["object"]),
        _counting_fit,
        _counting,
    ),
    FeatureSet(
        "object_abs_distance",
        "num",
        (
            "object_pair",
            "pair_freq_score",
            "pair_inv_var_score",
            "pair_count",
            "pair_val_mean_log",
            "pair_val_std_log",
        ),
        _pair_keys,
        _distance_fit,
        _distance,
    ),
    FeatureSet(
        "object_size_estimation",
        "num",
        ("object", "obj_count", "obj_freq_score", "obj_val_log_mean", "obj_val_log_std", "obj_val_log_ratio"),
        _extract(r"height\) of the (.*?), measured", ["object"]),
        _size_fit,
        _size,
    ),
    FeatureSet(
        "room_size_estimation",
        "num",
        ("global_mean_log", "global_std_log"),
        lambda frame: frame.copy(),
        _global,
        _with_global,
    ),
]
