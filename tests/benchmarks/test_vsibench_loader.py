import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from spatialbench.benchmarks import get_benchmark, load_items
from spatialbench.benchmarks.vsibench import load_vsibench
from spatialbench.records.item import AnswerKind, MediaKind
from support.shared_data import require_file

ROWS = [
    {"id": 1, "dataset": "scannet", "scene_name": "scene0001_00", "question_type": "object_counting",
     "question": "How many chair(s) are in this room?", "options": None, "ground_truth": "4"},
    {"id": 2, "dataset": "arkitscenes", "scene_name": "4100",
     "question_type": "object_rel_direction_easy", "question": "Is the table to the left or the right?",
     "options": ["A. left", "B. right"], "ground_truth": "b"},
]


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_registered_by_name():
    assert get_benchmark("vsibench").name == "vsibench"


def test_jsonl_fields_media_and_kind(tmp_path):
    items = load_items("vsibench", write_jsonl(tmp_path / "test.jsonl", ROWS))
    assert [i.id for i in items] == ["1", "2"] and items.errors == []
    count, direction = items
    assert count.answer_kind is AnswerKind.NUMERICAL and count.options == () and count.ground_truth == "4"
    assert direction.answer_kind is AnswerKind.MULTIPLE_CHOICE and direction.ground_truth == "B"
    assert direction.media[0].kind is MediaKind.VIDEO and direction.media[0].path == "arkitscenes/4100.mp4"
    assert (count.scene_id, count.dataset, count.task) == ("scene0001_00", "scannet", "object_counting")


def test_parquet_with_pruned_column(tmp_path):
    rows = [{**r, "pruned": i == 0} for i, r in enumerate(ROWS)]
    rows[0]["options"] = []  # parquet has no null lists in some exports; empty means numerical
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "test-00000.parquet")
    items = load_vsibench(tmp_path)
    assert [i.metadata["pruned"] for i in items] == [True, False]
    assert [i.id for i in load_vsibench(tmp_path, subset="debiased")] == ["2"]


def test_json_list_without_ids_gets_stable_marked_ids(tmp_path):
    rows = [{k: v for k, v in r.items() if k != "id"} for r in [*ROWS, ROWS[0]]]
    (tmp_path / "q.json").write_text(json.dumps(rows))
    first, second = load_vsibench(tmp_path / "q.json"), load_vsibench(tmp_path / "q.json")
    assert [i.id for i in first] == [i.id for i in second]
    assert first[0].id.startswith("scene0001_00-") and first[2].id == first[0].id + "-2"
    assert all(i.metadata["derived_id"] for i in first)


def test_malformed_rows_are_reported_and_others_kept(tmp_path):
    path = tmp_path / "test.jsonl"
    bad_letter = {**ROWS[1], "id": 3, "ground_truth": "C"}
    no_question = {**ROWS[0], "id": 4}
    del no_question["question"]
    lines = [json.dumps(ROWS[0]), "{not json", json.dumps(bad_letter), json.dumps(no_question),
             json.dumps(ROWS[1]), json.dumps(ROWS[1])]
    path.write_text("\n".join(lines) + "\n")
    items = load_vsibench(path)
    assert [i.id for i in items] == ["1", "2"]
    messages = [str(e) for e in items.errors]
    assert messages[0].startswith(f"{path}:2:") and "not valid JSON" in messages[0]
    assert messages[1].startswith(f"{path}:3: field 'ground_truth'")
    assert messages[2].startswith(f"{path}:4: field 'question'")
    assert messages[3].startswith(f"{path}:6: field 'id'") and "duplicate" in messages[3]


def test_debiased_without_pruning_info_is_refused(tmp_path):
    with pytest.raises(ValueError, match="pruned"):
        load_vsibench(write_jsonl(tmp_path / "t.jsonl", ROWS), subset="debiased")


def test_official_files_and_pruned_ids(shared_data):
    root = shared_data / "vsibench"
    subset = load_vsibench(require_file(root / "official_samples" / "subset_300.jsonl"),
                           pruned_ids=require_file(root / "debiased" / "pruned_ids.txt"))
    assert len(subset) == 300 and subset.errors == []
    pruned_ids = set((root / "debiased" / "pruned_ids.txt").read_text().split())
    assert {i.id for i in subset if i.metadata["pruned"]} == {i.id for i in subset} & pruned_ids
    debiased = load_vsibench(root / "official_samples" / "subset_300.jsonl",
                             pruned_ids=root / "debiased" / "pruned_ids.txt", subset="debiased")
    assert len(debiased) == 300 - len({i.id for i in subset} & pruned_ids)
    five = load_vsibench(require_file(root / "official_samples" / "gemini3flash_5scenes" / "questions"))
    assert len(five) == 291 and five.errors == [] and len({i.id for i in five}) == 291


@pytest.mark.parametrize("truth", ["abc", "", " ", "nan", "inf", "-Infinity", None])
def test_numerical_ground_truth_must_be_a_finite_number(tmp_path, truth):
    # audit vsibench crashed on float("abc") and wrote bare NaN for "nan": the loader refuses them
    path = write_jsonl(tmp_path / "t.jsonl", [{**ROWS[0], "ground_truth": truth}, {**ROWS[0], "id": 5}])
    items = load_vsibench(path)
    assert [i.id for i in items] == ["5"] and items[0].ground_truth == "4"
    assert [str(e).split(": ", 2)[:2] for e in items.errors] == [[f"{path}:1", "field 'ground_truth'"]]


def test_numerical_ground_truth_as_a_json_number_is_kept_as_text(tmp_path):
    items = load_vsibench(write_jsonl(tmp_path / "t.jsonl", [{**ROWS[0], "ground_truth": 2.3}]))
    assert items[0].ground_truth == "2.3" and items.errors == []


@pytest.mark.parametrize(
    ("field", "value"),
    [("dataset", "/etc"), ("dataset", ".."), ("scene_name", "../../secret"), ("scene_name", "a/b"),
     ("scene_name", "..\\x"), ("dataset", ".")],
)
def test_media_path_fields_that_leave_the_data_folder_are_row_errors(tmp_path, field, value):
    path = write_jsonl(tmp_path / "test.jsonl", [{**ROWS[0], field: value}, ROWS[1]])
    items = load_vsibench(path)
    assert [i.id for i in items] == ["2"]  # the good row is kept
    assert [str(e) for e in items.errors] == [
        f"{path}:1: field '{field}': {value!r} is not a plain name: media paths must stay inside the "
        "data folder"
    ]
