"""Questions asked as several variants (options rotated, image flipped), right only when every variant is.

Circular evaluation (MMBench's CircularEval, used by MMSI-Bench and 3DSRBench) and 3DSRBench's FlipEval
ask one question several times and count it right only when every variant is answered right. Each variant
is its own item (own id, own request); :func:`all_variants_right` folds the scored rows of a group of
variants into one row, whose score is the product of the variants' scores (VLMEvalKit's ``hit_map[key] *=
hit``), so every table is computed over groups, not variants.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

GroupKey = Callable[[str], str]
"""``key(item id) -> group id``: the variants sharing a key are one question."""


def all_variants_right(rows: pd.DataFrame, key: GroupKey) -> pd.DataFrame:
    """Fold the score rows of each group of variants into one row (in order of first appearance).

    The row kept is the group's first (the original question: its task, dataset, answer); its ``id`` is
    the group key, ``score`` the product of the group's scores (0/1 for multiple choice: 1 only when every
    variant is right; NaN when one is a data error), ``answered`` true only when every variant was read,
    ``missing`` true when any variant has no response, ``n_options`` the product of the variants' (random
    guessing gets all of them right with probability Π 1/nᵢ: the chance row of the same rule as the score;
    each when ``rows`` has the column).
    """
    if rows.empty:
        return rows
    groups = rows["id"].astype(str).map(key)
    folded = rows.assign(id=groups).groupby("id", sort=False)
    first = folded.head(1).set_index("id")
    first["score"] = folded["score"].apply(lambda s: s.prod(skipna=False))
    for column, fold in (("answered", "all"), ("missing", "any"), ("n_options", "prod")):
        if column in rows:  # rows of a baseline carry no ``missing``
            first[column] = folded[column].agg(fold)
    return first.reset_index()[list(rows.columns)]
