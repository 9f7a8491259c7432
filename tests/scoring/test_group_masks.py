"""A table's group masks are made once, a text column's condition asked of its distinct values (issue 25,
item 3): the same rows as ``Group.mask`` for every kind of condition.

Hand values: rows 0-5 (row 2 scores NaN, a data error: not among the table's rows), task ``x, y, x, None,
y, x``, room ``r1, r1, r2, r2, r1, r1``, ``n_options`` ``4, 0, 4, 4, 0, 2``.
"""

import numpy as np
import pandas as pd

from spatialbench.scoring.grouped import Group, grouped
from spatialbench.scoring.row_frame import column

GROUPS = (
    Group.of("x", task="x"),               # scored rows 0, 5 (row 2 is not scored)
    Group.of("x or none", task=("x", None)),  # a missing task matches None, as pandas isin: 0, 3, 5
    Group.of("number", task=3),            # no text is 3: no row
    Group.of("y in r1", task="y", room="r1"),  # 1, 4
    Group.of("no column", colour="red"),   # a column the rows lack: no row
    Group.of("four options", n_options=4),  # a numeric column: 0, 3
)


def _rows() -> pd.DataFrame:
    return pd.DataFrame({
        "id": column(list("abcdef")), "scene_id": column(["s1", "s1", "s2", "s2", "s3", "s3"]),
        "task": column(["x", "y", "x", None, "y", "x"]),
        "room": column(["r1", "r1", "r2", "r2", "r1", "r1"]),
        "score": [1.0, 0.0, np.nan, 1.0, 0.5, 0.0], "answered": [True] * 6, "n_options": [4, 0, 4, 4, 0, 2],
    })  # fmt: skip


def test_masks_are_the_rows_group_mask_chooses() -> None:
    table = grouped(_rows(), list(GROUPS))
    assert table.source is not None
    scored_ids = table.source["id"].tolist()
    chosen = [[scored_ids[i] for i in np.flatnonzero(mask)] for mask in table.group_masks]
    assert chosen == [["a", "f"], ["a", "d", "f"], [], ["b", "e"], [], ["a", "d"]]
    assert all(np.array_equal(mask, g.mask(table.source).to_numpy()) for g, mask in
               zip(GROUPS, table.group_masks, strict=True))
    assert [c.n for c in table.cells] == [2, 3, 0, 2, 0, 2]
    assert table.cells[3].accuracy == 25.0  # (0.0 + 0.5) / 2
    assert not any(mask.flags.writeable for mask in table.group_masks)


def test_a_copy_of_a_table_with_other_rows_makes_its_own_masks() -> None:
    """``dataclasses.replace`` (uncertainty's inner table) must not keep the masks of the first rows."""
    from dataclasses import replace

    table = grouped(_rows(), list(GROUPS))
    assert table.source is not None
    inner = replace(table, source=table.source.iloc[:2])
    assert [m.tolist() for m in inner.group_masks[:2]] == [[True, False], [True, False]]
