"""Issue 24: ``breakdown`` labelled rows of MRA scores (numerical questions) "accuracy"; the first row is
labelled by the metric of its cells' questions (``n_options`` 0: numerical, MRA).

Hand values: the numerical questions score 0.6 and 0.1 (MRA, mean 35.0), the multiple-choice ones 1 and 0
(accuracy 50.0).
"""

import pandas as pd

from spatialbench.scoring.grouped import Group, grouped
from spatialbench.scoring.render import breakdown_grid, cells_json


def _rows() -> pd.DataFrame:
    return pd.DataFrame({
        "id": ["1", "2", "3", "4"], "scene_id": ["s1", "s2", "s1", "s2"],
        "task": ["object_count", "object_count", "rel_direction", "rel_direction"],
        "score": [0.6, 0.1, 1.0, 0.0], "answered": [True] * 4, "n_options": [0, 0, 4, 4],
    })  # fmt: skip


def test_numerical_cells_are_labelled_mra() -> None:
    table = grouped(_rows(), [Group.of("count", task="object_count")], title="t")
    grid = breakdown_grid(table)
    assert grid.rows[0] == ("MRA", (35.0,))
    assert cells_json(table)["cells"][0]["metric"] == "MRA"


def test_choice_cells_keep_accuracy_and_mixed_tables_say_both() -> None:
    choice = grouped(_rows(), [Group.of("dir", task="rel_direction")], title="t")
    assert breakdown_grid(choice).rows[0] == ("accuracy", (50.0,))
    mixed = grouped(_rows(), [Group.of("count", task="object_count"), Group.of("dir", task="rel_direction")],
                    title="t")
    assert breakdown_grid(mixed).rows[0] == ("accuracy / MRA", (35.0, 50.0))
    assert [c["metric"] for c in cells_json(mixed)["cells"]] == ["MRA", "accuracy"]
    both = grouped(_rows(), [Group.of("all")], title="t")
    assert breakdown_grid(both).rows[0][0] == "accuracy / MRA" and both.cells[0].metric == "accuracy / MRA"
