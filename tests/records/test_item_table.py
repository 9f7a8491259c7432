"""Items as columns (issue 25, item 3): a table reads back the very items it was made of."""

import pytest

from spatialbench.records.item import AnswerKind, Item
from spatialbench.records.item_table import FIELDS, ItemTable, LoadedTable
from spatialbench.records.rows import RowError

ITEMS = [
    Item(id="a", benchmark="vsibench", task="object_counting", question="How many chairs?", ground_truth="3",
         answer_kind=AnswerKind.NUMERICAL, scene_id="s1", dataset="scannet", metadata={"pruned": True}),
    Item(id="b", benchmark="vsibench", task="route_planning", question="Which way?", options=("A. x", "B. y"),
         ground_truth="B", answer_kind=AnswerKind.MULTIPLE_CHOICE, scene_id="s2", dataset="arkitscenes"),
]


def test_a_table_of_items_gives_them_back_in_order():
    table = ItemTable.of(ITEMS)
    assert len(table) == 2 and list(table) == ITEMS and table[1] == ITEMS[1] and table[-1] == ITEMS[1]
    assert table.column("id") == ["a", "b"] and table.column("options") == [(), ("A. x", "B. y")]
    assert list(table[1:]) == ITEMS[1:] and list(table.take([1, 0])) == ITEMS[::-1]
    assert ItemTable.of(table) is table and ITEMS[1] in table
    assert repr(table) == "ItemTable(2 items: ids 'a', 'b'; list(table) gives the Item objects)"
    # every field as an Item made by pydantic holds it: equal models, equal dumps
    assert [i.model_dump() for i in table] == [i.model_dump() for i in ITEMS]


def test_a_loaded_table_keeps_its_row_errors():
    error = RowError("test.jsonl", 3, "id", "missing")
    loaded = LoadedTable.of_items(iter(ITEMS), [error])
    assert loaded.errors == [error] and list(loaded) == ITEMS


@pytest.mark.parametrize("columns", [
    {name: [] for name in FIELDS[:-1]},
    {name: [] for name in reversed(FIELDS)},
    {name: [1] if name == "id" else [] for name in FIELDS},
])
def test_a_table_refuses_columns_that_are_not_the_items_fields(columns):
    with pytest.raises(ValueError):
        ItemTable(columns)
