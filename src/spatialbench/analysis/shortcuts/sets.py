"""The feature-set catalogue: question type -> :class:`.features.FeatureSet`."""

from __future__ import annotations

from spatialbench.analysis.shortcuts.choices import CHOICE_SETS, GENERIC_CHOICE, LEAKY_REL_DISTANCE
from spatialbench.analysis.shortcuts.cvbench import CVBENCH_SETS, LEAKY_CVBENCH_SETS
from spatialbench.analysis.shortcuts.features import NUMBER_SETS, FeatureSet, _global, _with_global
from spatialbench.analysis.shortcuts.order import APPEARANCE_ORDER

#: The leak-free default sets, by question type.
FEATURE_SETS: dict[str, FeatureSet] = {
    fs.name: fs for fs in [*NUMBER_SETS, *CHOICE_SETS, APPEARANCE_ORDER, *CVBENCH_SETS]
}

#: Sets that read the answer (official relative distance, CV-Bench pairs): refused by the leak check.
LEAKY_FEATURE_SETS: dict[str, FeatureSet] = {"object_rel_distance": LEAKY_REL_DISTANCE, **LEAKY_CVBENCH_SETS}

#: The generic numerical set (training-fold log-value mean and spread) for any other question type.
GENERIC_NUMBER = FeatureSet(
    "*", "num", ("global_mean_log", "global_std_log"), lambda f: f.copy(), _global, _with_global
)


def feature_set(task: str, format: str, sets: dict[str, FeatureSet] | None = None) -> FeatureSet:
    """Return ``task``'s set from ``sets`` (default :data:`FEATURE_SETS`), else the generic one."""
    chosen = (sets or FEATURE_SETS).get(task)
    if chosen is not None and chosen.format == format:
        return chosen
    return GENERIC_CHOICE if format == "mc" else GENERIC_NUMBER
