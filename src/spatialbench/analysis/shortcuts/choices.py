"""TsT-RF feature sets of relative distance, relative direction and route planning (official ``models.py``).

Each is the official set's leak-free default: object keys from the question (the official regular
expressions; a generated row's slots instead), their training-fold frequencies, and option frequencies
learned on the training fold, how often an option's text is the gold answer there (``opt_{i}_freq_score``
of route planning, ``opt_{i}_option_freq`` of relative distance). The official columns that read the row's
own answer are left out of the defaults (relative distance's pair frequencies, kept as a leaky set for
parity) or read from the question instead (route planning's ``num_steps``).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from spatialbench.analysis.shortcuts.features import FeatureSet, Maps, _extract

_N_OPTIONS = 4
_REL_DISTANCE = r"which of these objects \((.*?), (.*?), (.*?), (.*?)\) is the closest to the (.*?)\?$"
_REL_DIRECTION = r"standing by the (.*?) and facing the (.*?), is the (.*?) to"
_ROUTE = (
    r"You are a robot beginning (?:at|by) the (.*?) "
    r"(?:facing the|facing to|facing towards the|facing|with your back to the) "
    r"(.*?)\. You want to navigate to the (.*?)\."
)


def _route_names(found: pd.Series) -> pd.Series:
    """Clean a route object as the official ``select_rows`` does (a trailing " and", a leading "the ")."""
    return found.str.replace(r" and$", "", regex=True).str.replace(r"^the ", "", regex=True).str.strip()


def _gold_counts(train: pd.DataFrame) -> Maps:
    return {"gold": train["gt_val"].value_counts()}


def _option_columns(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    out["num_choices"] = out["options"].map(len)
    for i in range(_N_OPTIONS):
        out[f"opt_{i}"] = out["options"].map(lambda texts, i=i: texts[i] if len(texts) > i else None)
    return out


def _with_keys(pattern: str | None, names: list[str], **clean: Any):  # type: ignore[no-untyped-def]
    def keys(frame: pd.DataFrame) -> pd.DataFrame:
        out = _option_columns(frame)
        return _extract(pattern, names, **clean)(out) if pattern else out

    return keys


def _option_frequencies(maps: Maps, frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    share = maps["gold"] / max(int(maps["gold"].sum()), 1)
    for i in range(_N_OPTIONS):
        out[f"opt_{i}_freq_score"] = out[f"opt_{i}"].map(share).fillna(0.0)
    return out


def _objects_fit(names: list[str], options: bool):  # type: ignore[no-untyped-def]
    def fit(train: pd.DataFrame) -> Maps:
        objects = pd.concat([train[name] for name in names]).dropna()
        gold = _gold_counts(train) if options else {}
        return {**gold, "objects": objects.value_counts(normalize=True)}

    return fit


def _objects_transform(names: list[str], options: bool):  # type: ignore[no-untyped-def]
    def transform(maps: Maps, frame: pd.DataFrame) -> pd.DataFrame:
        out = _option_frequencies(maps, frame) if options else frame.copy()
        out["obj_freq_score"] = sum(out[name].map(maps["objects"]).fillna(0.0) for name in names)
        return out

    return transform


def _rel_distance(maps: Maps, frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    for i in range(_N_OPTIONS):
        out[f"opt_{i}_option_freq"] = out[f"object_{i + 1}"].map(maps["gold"]).fillna(0)
    out["max_option_freq"] = out[[f"opt_{i}_option_freq" for i in range(_N_OPTIONS)]].max(axis=1)
    return out


def _rel_distance_pairs(train: pd.DataFrame) -> Maps:
    pair = _target_gold_pairs(train)
    return {**_gold_counts(train), "pair": pair[0].value_counts(), "ord_pair": pair[1].value_counts()}


def _target_gold_pairs(frame: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    target, gold = frame["target_object"].astype(str), frame["gt_val"].astype(str)
    pair = pd.Series(["-".join(sorted(p)) for p in zip(target, gold, strict=True)], index=frame.index)
    return pair, target + "-" + gold


def _rel_distance_leaky(maps: Maps, frame: pd.DataFrame) -> pd.DataFrame:
    """Add the official set's columns: its pair frequencies read the *row's own* gold object (a leak)."""
    out = _rel_distance(maps, frame)
    pair, ordered = _target_gold_pairs(out)
    for i in range(_N_OPTIONS):
        out[f"opt_{i}_tgt_option_pair_freq"] = pair.map(maps["pair"]).fillna(0)
        out[f"opt_{i}_tgt_option_ord_pair_freq"] = ordered.map(maps["ord_pair"]).fillna(0)
    for name in ("tgt_option_pair_freq", "tgt_option_ord_pair_freq"):
        out[f"max_{name}"] = out[[f"opt_{i}_{name}" for i in range(_N_OPTIONS)]].max(axis=1)
    return out


_OPTS = tuple(f"opt_{i}" for i in range(_N_OPTIONS))
_OPT_FREQ = tuple(f"opt_{i}_freq_score" for i in range(_N_OPTIONS))
_DIST_KEYS = ["object_1", "object_2", "object_3", "object_4", "target_object"]
_DIR_KEYS = ["positioning_object", "orienting_object", "querying_object"]
_ROUTE_KEYS = ["beginning_object", "facing_object", "target_object"]
_DIST_COLS = (*_DIST_KEYS, "max_option_freq", *(f"opt_{i}_option_freq" for i in range(_N_OPTIONS)))


def _rel_distance_keys(frame: pd.DataFrame) -> pd.DataFrame:
    """Add the official keys; a generated row (it has slots) takes its four objects from its options.

    They are the names its question lists, in the same order, but not parsed from the text.
    """
    out = _with_keys(_REL_DISTANCE, _DIST_KEYS)(frame)
    if "slots" in out.columns:
        generated = out["slots"].map(lambda slots: isinstance(slots, dict))
        for i in range(_N_OPTIONS):
            out[f"object_{i + 1}"] = out[f"opt_{i}"].where(generated, out[f"object_{i + 1}"])
    return out


def _route_keys(frame: pd.DataFrame) -> pd.DataFrame:
    """Add the official keys and ``num_steps``, counted in the first option rather than the gold route.

    Every option of a route question has as many turns as the answer (the generator draws distractors of
    the same length; all official questions do), so the count equals the official one without reading
    the label.
    """
    out = _with_keys(_ROUTE, _ROUTE_KEYS, clean=_route_names)(frame)
    out["num_steps"] = out["opt_0"].map(lambda route: len(route.split(",")) if isinstance(route, str) else 0)
    return out


CHOICE_SETS = [
    FeatureSet("object_rel_distance", "mc", _DIST_COLS, _rel_distance_keys, _gold_counts, _rel_distance),
    # official RelDirModel: the three roles, their training-fold frequency, the level
    FeatureSet(
        "object_rel_direction",
        "mc",
        ("difficulty", *_DIR_KEYS, "obj_freq_score"),
        _extract(_REL_DIRECTION, _DIR_KEYS),
        _objects_fit(_DIR_KEYS, False),
        _objects_transform(_DIR_KEYS, False),
    ),
    FeatureSet(
        "route_planning",
        "mc",
        (*_ROUTE_KEYS, "num_steps", "num_choices", "obj_freq_score", *_OPT_FREQ, *_OPTS),
        _route_keys,
        _objects_fit(_ROUTE_KEYS, True),
        _objects_transform(_ROUTE_KEYS, True),
    ),
]

#: The generic multiple-choice set (option texts and their gold frequencies) for any other question type.
GENERIC_CHOICE = FeatureSet(
    "*", "mc", ("num_choices", *_OPT_FREQ, *_OPTS), _with_keys(None, []), _gold_counts, _option_frequencies
)

#: The official relative-distance set including its label-reading pair frequencies, in the official order
#: (the order matters: a forest draws features by column index).
LEAKY_REL_DISTANCE = FeatureSet(
    "object_rel_distance",
    "mc",
    (
        *_DIST_KEYS,
        "max_option_freq",
        "max_tgt_option_pair_freq",
        "max_tgt_option_ord_pair_freq",
        *(
            f"opt_{i}_{s}"
            for i in range(_N_OPTIONS)
            for s in ("option_freq", "tgt_option_pair_freq", "tgt_option_ord_pair_freq")
        ),
    ),
    _rel_distance_keys,
    _rel_distance_pairs,
    _rel_distance_leaky,
)
