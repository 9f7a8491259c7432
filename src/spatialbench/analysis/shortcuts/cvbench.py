"""TsT-RF feature sets of CV-Bench (the official ``TsT/benchmarks/cvb/models.py``, names and order kept).

The official question types are ``task_type`` in lower case: ``count_2d``, ``relation_2d``, ``depth_3d``,
``distance_3d`` (:func:`.table.question_table` names CV-Bench rows so). Keys come from the question as the
file writes it (``question_text``, before the choices are appended): the counted object (``How many (.*?)
are in the image``), the relation's pair (the official regular expressions, annotation markers removed),
and for depth and distance the two choices, sorted. Statistics come from the training fold only.

Three official sets read the row's own answer: ``pair_answer_freq_score`` (the training fold's share of the
row's *gold* option for its pair: relation, depth, distance) and ``is_majority_answer`` (whether the row's
gold option is the training fold's most common one: relation). The leak check refuses them; the default
sets are the official ones without those columns, the official sets as published are
:data:`LEAKY_CVBENCH_SETS` (parity tests only). Count's official columns read no answer.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from sklearn.preprocessing import minmax_scale

from spatialbench.analysis.shortcuts.features import FeatureSet, Maps

_EPS = 1e-6
_CHOICES = 6  # the official count set's choice columns
_COUNT = [
    "n_options",
    "object",
    "obj_count",
    "obj_freq_score",
    "obj_val_mean",
    "obj_val_std",
    "obj_val_log_mean",
    "obj_val_log_std",
    "obj_val_log_ratio",
    "global_mean_log",
    "global_std_log",
    *(f"choice_{i}_dist_from_obj_mean" for i in range(_CHOICES)),
    *(f"choice_{i}_dist_from_global_mean" for i in range(_CHOICES)),
]
_KEYWORDS = {
    "left": ["left", "to the left"],
    "right": ["right", "to the right"],
    "above": ["above", "over", "on top"],
    "below": ["below", "under", "beneath"],
    "front": ["front", "in front", "foreground"],
    "behind": ["behind", "back", "background"],
}
_RELATION = [
    "n_options",
    "object_1",
    "object_2",
    "pair_freq_score",
    "pair_answer_freq_score",
    *(f"contains_{d}" for d in _KEYWORDS),
    "spatial_keyword_count",
    "question_length",
    "is_majority_answer",
]
_PAIR = ["object_1", "object_2", "pair_freq_score", "pair_answer_freq_score", "n_options"]
#: Official columns that read the row's own gold option.
LABEL_READING = ("pair_answer_freq_score", "is_majority_answer")


def _text(frame: pd.DataFrame) -> pd.Series:
    return frame["question_text"] if "question_text" in frame else frame["question"]


def _count_keys(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    out["object"] = _text(out).str.extract(r"How many (.*?) are in the image")[0].str.strip()
    out["n_options"] = out["options"].map(len)
    gold = pd.to_numeric(out["gt_val"], errors="coerce")  # the official select_rows drops both
    return out[out["object"].notna() & gold.notna()]


def _count_fit(train: pd.DataFrame) -> Maps:
    gold = pd.to_numeric(train["gt_val"], errors="coerce")
    rows = pd.DataFrame({"object": train["object"].to_numpy(), "gt": gold.to_numpy()})
    rows["log"] = np.log10(rows["gt"] + 1.0)
    grouped = rows.groupby("object")
    stats = pd.DataFrame(
        {
            "obj_count": grouped["gt"].size(),
            "obj_val_mean": grouped["gt"].mean(),
            "obj_val_std": grouped["gt"].std().fillna(0),
            "obj_val_log_mean": grouped["log"].mean(),
            "obj_val_log_std": grouped["log"].std().fillna(0),
        }
    )
    stats["obj_val_log_ratio"] = (stats["obj_val_log_std"] / (stats["obj_val_log_mean"] + _EPS)).fillna(0)
    return {"stats": stats, "global_mean_log": rows["log"].mean(), "global_std_log": rows["log"].std()}


def _count(maps: Maps, frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.join(maps["stats"], on="object")
    out["obj_freq_score"] = minmax_scale(out["obj_count"])
    out["obj_val_log_ratio"] = 1.0 - minmax_scale(out["obj_val_log_ratio"] + _EPS)
    out["global_mean_log"], out["global_std_log"] = maps["global_mean_log"], maps["global_std_log"]
    for i in range(_CHOICES):
        value = out["options"].map(
            lambda o, i=i: pd.to_numeric(o[i], errors="coerce") if len(o) > i else np.nan
        )
        logged = np.log10(value.astype(float) + 1.0)
        out[f"choice_{i}_dist_from_obj_mean"] = (logged - out["obj_val_log_mean"]).abs()
        out[f"choice_{i}_dist_from_global_mean"] = (logged - maps["global_mean_log"]).abs()
    return out


def _relation_objects(question: str) -> tuple[str | None, str | None]:
    """Return the official ``extract_objects``: the pair after 'relative positions of', else two 'the X'."""
    question = question.replace(" (annotated by the red box)", "").replace(" (annotated by the blue box)", "")
    match = re.search(r"the relative positions of the ([^,]+?) and the ([^,]+?)[, ]", question)
    if match:
        return match.group(1).strip(), match.group(2).strip()
    found = re.findall(r"the ([a-zA-Z0-9_ ]+?)[,?\.]", question)
    return (found[0].strip(), found[1].strip()) if len(found) >= 2 else (None, None)


def _sorted_pair(out: pd.DataFrame, pairs: list[tuple[str | None, str | None]]) -> pd.DataFrame:
    ordered = [sorted(p) if None not in p else [None, None] for p in pairs]  # type: ignore[type-var]
    out["object_1"], out["object_2"] = [p[0] for p in ordered], [p[1] for p in ordered]
    out["n_options"] = out["options"].map(len)
    return out[out["object_1"].notna() & out["object_2"].notna()]


def _relation_keys(frame: pd.DataFrame) -> pd.DataFrame:
    return _sorted_pair(frame.copy(), [_relation_objects(q) for q in _text(frame)])


def _choice_keys(frame: pd.DataFrame) -> pd.DataFrame:
    return _sorted_pair(
        frame.copy(), [(o[0], o[1]) if len(o) >= 2 else (None, None) for o in frame["options"]]
    )


def _pair_fit(train: pd.DataFrame) -> Maps:
    pairs = train["object_1"] + "-" + train["object_2"]
    shares: dict[tuple[str, str], dict[str, float]] = {}
    for key, answers in train.groupby(["object_1", "object_2"], sort=False)["gt_val"]:
        counts = answers.value_counts(sort=False)
        shares[(str(key[0]), str(key[1]))] = {str(a): n / counts.sum() for a, n in counts.items()}
    return {
        "pair_freq": pairs.value_counts(normalize=True).to_dict(),
        "pair_answer": shares,
        "majority": train["gt_val"].value_counts().idxmax(),
    }


def _pairs(maps: Maps, frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    keys = list(zip(out["object_1"], out["object_2"], strict=True))
    out["pair_freq_score"] = [maps["pair_freq"].get(f"{a}-{b}", 0) for a, b in keys]
    out["pair_answer_freq_score"] = [  # reads the row's own gold option: a leak
        maps["pair_answer"].get(k, {}).get(g, 0) for k, g in zip(keys, out["gt_val"], strict=True)
    ]
    return out


def _relation(maps: Maps, frame: pd.DataFrame) -> pd.DataFrame:
    out = _pairs(maps, frame)
    lower = _text(out).str.lower()
    for direction, words in _KEYWORDS.items():
        out[f"contains_{direction}"] = lower.map(lambda q, w=words: int(any(k in q for k in w)))
    out["spatial_keyword_count"] = sum(out[f"contains_{d}"] for d in _KEYWORDS)
    out["question_length"] = _text(out).str.len()
    out["is_majority_answer"] = (out["gt_val"] == maps["majority"]).astype(int)  # reads the gold option
    return out


def _sets(drop: tuple[str, ...]) -> list[FeatureSet]:
    def cols(names: list[str]) -> tuple[str, ...]:
        return tuple(c for c in names if c not in drop)

    return [
        FeatureSet("count_2d", "mc", cols(_COUNT), _count_keys, _count_fit, _count),
        FeatureSet("relation_2d", "mc", cols(_RELATION), _relation_keys, _pair_fit, _relation),
        FeatureSet("depth_3d", "mc", cols(_PAIR), _choice_keys, _pair_fit, _pairs),
        FeatureSet("distance_3d", "mc", cols(_PAIR), _choice_keys, _pair_fit, _pairs),
    ]


#: The leak-free defaults: the official sets without :data:`LABEL_READING`.
CVBENCH_SETS = _sets(LABEL_READING)
#: The official sets as published (they read the answer; the leak check refuses them).
LEAKY_CVBENCH_SETS = {fs.name: fs for fs in _sets(()) if fs.name != "count_2d"}
