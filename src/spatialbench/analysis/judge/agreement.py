"""Averaging several judges and measuring how far they agree (ReMindView-Bench Sec. 5.1, Table 2).

``scores[judge][item]`` maps phase (1–3) to that judge's percentage, or None (the judge failed on the item,
or the phase states no relation). An item's phase score is the mean over the judges that gave one (the
paper averages GPT-4o, Claude-4-Sonnet and Gemini-2.5-Pro). Table 2: per phase, the mean of the item
scores over items answered correctly and incorrectly (and all), with the item counts.

Agreement (the paper reports none): Krippendorff's alpha, interval level (``krippendorff`` package), over
units = (item, phase) with the judges as coders and missing values left out; and the Pearson correlation
of every pair of judges over the units both scored. None where undefined (one judge, fewer than two
pairable units, no variance).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from spatialbench.analysis.judge.schema import JUDGED_PHASES

Scores = dict[str, dict[str, dict[int, float | None]]]
"""judge → item id → phase → percent or None."""

#: Table 2 of the paper: model → group → phase scores (%)
TABLE_2 = {
    "Qwen2.5-VL-3B": {"correct": [73.2, 43.8, 32.6], "incorrect": [68.7, 31.4, 18.5]},
    "Qwen2.5-VL-7B": {"correct": [76.1, 58.2, 36.3], "incorrect": [72.5, 43.6, 21.9]},
    "Qwen2.5-VL-32B": {"correct": [81.9, 63.5, 38.8], "incorrect": [76.8, 44.2, 24.6]},
}


def item_means(scores: Scores) -> dict[str, dict[int, float | None]]:
    """Return item → phase → mean over the judges that scored it (None when none did)."""
    items = sorted({item for per_judge in scores.values() for item in per_judge})
    out: dict[str, dict[int, float | None]] = {}
    for item in items:
        out[item] = {}
        for k in JUDGED_PHASES:
            values = [s[item][k] for s in scores.values() if s.get(item, {}).get(k) is not None]
            out[item][k] = float(np.mean(values)) if values else None  # type: ignore[arg-type]
    return out


def phase_table(means: dict[str, dict[int, float | None]], correct: dict[str, bool]) -> dict[str, Any]:
    """Return group (``correct``, ``incorrect``, ``all``) → phase → {"mean", "items"} (Table 2 layout)."""
    groups = {
        "correct": [i for i in means if correct.get(i) is True],
        "incorrect": [i for i in means if correct.get(i) is False],
        "all": [i for i in means if i in correct],
    }
    table: dict[str, Any] = {}
    for group, items in groups.items():
        table[group] = {}
        for k in JUDGED_PHASES:
            values = [v for i in items if (v := means[i][k]) is not None]
            table[group][str(k)] = {"mean": float(np.mean(values)) if values else None, "items": len(values)}
    return table


def _matrix(scores: Scores) -> tuple[list[str], np.ndarray]:
    judges = list(scores)
    items = sorted({item for per_judge in scores.values() for item in per_judge})
    units = [(i, k) for i in items for k in JUDGED_PHASES]

    def value(judge: str, item: str, k: int) -> float:
        found = scores[judge].get(item, {}).get(k)
        return np.nan if found is None else float(found)

    rows = [[value(j, i, k) for i, k in units] for j in judges]
    return judges, np.array(rows, dtype=np.float64).reshape(len(judges), len(units))


def krippendorff_alpha(scores: Scores) -> float | None:
    """Return interval Krippendorff's alpha of the judges over (item, phase) units (None if undefined)."""
    import krippendorff

    judges, data = _matrix(scores)
    pairable = (~np.isnan(data)).sum(axis=0) >= 2
    if len(judges) < 2 or pairable.sum() < 2 or np.nanstd(data[:, pairable]) == 0:
        return None
    try:
        value = krippendorff.alpha(reliability_data=data[:, pairable], level_of_measurement="interval")
    except (ValueError, ZeroDivisionError):
        return None
    return None if not np.isfinite(value) else float(value)


def pairwise_correlation(scores: Scores) -> list[dict[str, Any]]:
    """Return, per pair of judges, the Pearson correlation over units both scored and the unit count."""
    judges, data = _matrix(scores)
    out = []
    for a, b in combinations(range(len(judges)), 2):
        both = ~np.isnan(data[a]) & ~np.isnan(data[b])
        x, y = data[a, both], data[b, both]
        r = float(np.corrcoef(x, y)[0, 1]) if both.sum() >= 2 and x.std() > 0 and y.std() > 0 else None
        out.append({"judges": [judges[a], judges[b]], "pearson": r, "units": int(both.sum())})
    return out
