"""The lean load path (issue 16, item 4): same items and the same error messages (file, line, field).

The expected messages below are what the loaders printed before the lean path (records validated by
pydantic one by one, files read whole), run on the same files; they are pinned here as text.
"""

import gc
import inspect
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from spatialbench.benchmarks.vsibench import load_vsibench
from spatialbench.records import files
from spatialbench.records.bulk import Shared, checked_item, item_of, paused_gc
from spatialbench.records.item import Item
from spatialbench.scoring.predictions import read_predictions

ROWS = 20_000


def row(k: int) -> dict:
    """Row ``k`` of the big file: MCA and NA questions, 288 scenes, an extra field on every 7th."""
    record = {"id": k, "dataset": ("arkitscenes", "scannet", "scannetpp")[k % 3], "scene_name": f"s{k % 288}",
              "question_type": "object_counting", "question": f"Q{k}?", "options": None, "ground_truth": "3"}
    if k % 2:
        record.update(question_type="route_planning", options=["A. left", "B. right"],
                      ground_truth="ab"[k % 4 // 2])
    if k % 7 == 0:
        record["mc_options"] = ["A. 1", "B. 3"]
    return record


BAD_LINES = {
    2: b"{not json",
    777: json.dumps({**row(777), "question": "caf\u00e9?"}, ensure_ascii=False).encode("latin-1"),
    5_000: b"[1, 2]",
    5_001: b'{"id": 5001,',
    9_999: json.dumps({**row(9_999), "ground_truth": "C"}).encode(),
    12_000: json.dumps({k: v for k, v in row(12_000).items() if k != "question"}).encode(),
    15_000: json.dumps({**row(3)}).encode(),
    17_000: json.dumps({**row(17_000), "scene_name": "../x"}).encode(),
    18_000: b"   ",
    18_001: json.dumps(row(18_001)).encode() + b"\r",
    19_000: json.dumps({**row(19_000), "ground_truth": "nan"}).encode(),
    19_500: json.dumps({**row(19_500), "options": "A. left"}).encode(),
}
EXPECTED = [
    "{f}:2: not valid JSON (Expecting property name enclosed in double quotes at column 2)",
    "{f}:777: not UTF-8 text (byte 0xe9 at column 112); save the file as UTF-8",
    "{f}:5000: expected a JSON object, got list",
    "{f}:5001: not valid JSON (Expecting property name enclosed in double quotes at column 13)",
    "{f}:9999: field 'ground_truth': 'C' is not one of the option letters 'AB'",
    "{f}:12000: field 'question': missing or not a non-empty string: None",
    "{f}:15000: field 'id': duplicate id '3' (first at {f}:3)",
    "{f}:17000: field 'scene_name': '../x' is not a plain name: media paths must stay inside the data folder",
    "{f}:19000: field 'ground_truth': numerical ground truth 'nan' is not a finite number",
    "{f}:19500: field 'options': expected a list of strings or null, got str",
    "{f}:20000: not valid JSON (Expecting value at column 27)",
]


def big_jsonl(path):
    lines = [BAD_LINES.get(n, json.dumps(row(n)).encode()) for n in range(1, ROWS)]  # line n: row n
    lines.append(b'{"id": 20000, "question": ')  # the last line: no newline, cut short
    path.write_bytes(b"\n".join(lines))
    return path


def test_bad_rows_of_a_big_jsonl_file_give_the_same_messages(tmp_path):
    path = big_jsonl(tmp_path / "test.jsonl")
    items = load_vsibench(path)
    assert [str(e) for e in items.errors] == [m.format(f=path) for m in EXPECTED]
    assert len(items) == ROWS - 12  # 11 bad rows and one blank line; line 18001 (ending \r) is read
    assert items[-1].id == "19999" and "18001" in {i.id for i in items}


def test_checked_items_equal_validated_items(tmp_path):
    rows = [row(k) for k in range(40)] + [{k: v for k, v in row(40).items() if k != "id"}]
    rows[5]["pruned"] = 1
    path = tmp_path / "test.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for item in load_vsibench(path, pruned_ids=["3", "4"]):
        validated = Item(**dict(item))  # every field through pydantic
        assert item == validated and item.model_dump() == validated.model_dump()
        assert item.model_dump(exclude_unset=True) == validated.model_dump(exclude_unset=True)
        assert item.metadata.get("pruned") is (item.id in {"3", "4"})


def test_repeated_values_are_stored_once(tmp_path):
    path = tmp_path / "test.jsonl"
    path.write_text("".join(json.dumps(row(k)) + "\n" for k in (1, 289, 3, 291)))  # two scenes twice each
    first, second, third, fourth = load_vsibench(path)
    assert first.media is second.media and first.options is second.options and first.task is third.task
    assert third.media is fourth.media and first.media != third.media
    assert first.media[0].path == "scannet/s1.mp4"


def test_a_copy_of_a_checked_item_gets_its_own_fields_set(tmp_path):
    item = checked_item(**dict(Item(id="1", benchmark="b", task="t", question="q", ground_truth="2",
                                    answer_kind="numerical")))
    copy = item.model_copy(update={"ground_truth": "3"})
    assert copy.ground_truth == "3" and item.ground_truth == "2"
    assert item.model_fields_set == set(Item.model_fields)


def test_checked_item_needs_every_field():
    with pytest.raises(TypeError, match=r"missing \['answer_kind'"):
        checked_item(id="1", benchmark="b", task="t", question="q", ground_truth="2")


def test_parquet_rows_across_batches_keep_their_row_numbers(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "PARQUET_BATCH", 7)
    rows = [row(k) for k in range(30)]
    rows[9]["ground_truth"] = "Z"
    rows[20] = row(4)
    path = tmp_path / "test.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    items = load_vsibench(path)
    assert [str(e) for e in items.errors] == [
        f"{path}:10: field 'ground_truth': 'Z' is not one of the option letters 'AB'",
        f"{path}:21: field 'id': duplicate id '4' (first at {path}:5)",
    ]
    assert [i.id for i in items] == [str(k) for k in range(30) if k not in (9, 20)]


def test_bad_prediction_lines_of_a_big_file_give_the_same_messages(tmp_path):
    lines = [json.dumps({"id": k, "response": "A"}).encode() for k in range(ROWS)]
    lines[99] = b'{"response": "A"}'
    lines[4_999] = b'{"id": 3, "response": "B"}'
    lines[9_999] = b'{"id": 9999, "response": 7}'
    lines[14_999] = b'{"id": 14999, "response": "caf\xe9"}'
    lines[19_998] = b'{"id": 19998'
    path = tmp_path / "predictions.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    read = read_predictions(path, [])
    assert [str(e) for e in read.errors] == [
        f"{path}:100: field 'id': missing (each line needs 'id' and 'response')",
        f"{path}:5000: field 'id': second prediction for item '3' (first kept)",
        f"{path}:10000: field 'response': response is not a string: 7",
        f"{path}:15000: not UTF-8 text (byte 0xe9 at column 31); save the file as UTF-8",
        f"{path}:19999: not valid JSON (Expecting ',' delimiter at column 13)",
    ]
    assert len(read.responses) == ROWS - 5 and read.responses["19999"] == "A"


def test_a_utf16_jsonl_file_is_one_row_error(tmp_path):
    path = tmp_path / "test.jsonl"
    path.write_bytes(json.dumps(row(1)).encode("utf-16"))
    assert [str(e) for e in load_vsibench(path).errors] == [f"{path}:1: {files.UTF16_TEXT}"]


def test_a_utf8_byte_order_mark_is_dropped(tmp_path):
    path = tmp_path / "test.jsonl"
    path.write_bytes(files.BOM + json.dumps(row(1)).encode() + b"\n")
    assert [i.id for i in load_vsibench(path)] == ["1"]


def test_paused_gc_restores_the_collector_after_an_error():
    assert gc.isenabled()
    with pytest.raises(RuntimeError), paused_gc():
        assert not gc.isenabled()
        raise RuntimeError
    assert gc.isenabled()


def test_shared_returns_the_first_equal_value():
    shared = Shared()
    first = shared(("A. x", "B. y"))
    assert shared(("A. x", "B. y")) is first
    assert shared.made("k", lambda: [1]) is shared.made("k", lambda: [2])


def test_a_repeated_id_names_its_first_file_and_line_across_files(tmp_path):
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(row(k)) + "\n" for k in (1, 2)))
    (tmp_path / "b.jsonl").write_text("".join(json.dumps(row(k)) + "\n" for k in (3, 2, 3)))
    items = load_vsibench(tmp_path)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert [str(e) for e in items.errors] == [f"{b}:2: field 'id': duplicate id '2' (first at {a}:2)",
                                              f"{b}:3: field 'id': duplicate id '3' (first at {b}:1)"]


def test_item_has_nothing_that_checked_item_would_skip():
    # checked_item sets the instance dict and pydantic's three slots itself, as model_construct does; that
    # is only the same model while Item has no private attributes, extras, validators run after
    # construction or computed defaults beyond its field defaults
    assert Item.__private_attributes__ == {} and Item.__pydantic_post_init__ is None
    assert Item.model_config.get("extra") in (None, "ignore") and Item.model_config.get("frozen") is True
    decorators = Item.__pydantic_decorators__
    assert not decorators.model_validators and not decorators.field_validators
    fields = dict(Item(id="1", benchmark="b", task="t", question="q", ground_truth="2",
                       answer_kind="numerical"))
    assert checked_item(**fields).__getstate__() == Item(**fields).__getstate__()


def test_item_of_takes_every_field_of_item_in_its_order():
    assert tuple(inspect.signature(item_of).parameters) == tuple(Item.model_fields)
