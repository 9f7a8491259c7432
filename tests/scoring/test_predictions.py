import json

import pytest

from spatialbench.scoring.predictions import detect_format, read_predictions
from support.prediction_items import ITEMS, item


def test_jsonl_id_response(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": 1, "response": "2"}\n{"id": 2}\n{"response": "x"}\n{"id": 1, "response": "3"}\n')
    read = read_predictions(path, ITEMS)
    assert read.format == "jsonl" and read.responses == {"1": "2"}
    assert [(e.line, e.field) for e in read.errors] == [(2, "response"), (3, "id"), (4, "id")]


def test_lmms_eval_samples_log(tmp_path):
    # the shape of an lmms-eval --log_samples line (doc, target, resps, filtered_resps, hashes)
    lines = [
        {"doc_id": 0, "doc": {"id": 1, "scene_name": "s1", "question": "How many chairs?"}, "target": "2",
         "arguments": {}, "resps": [["3 chairs"]], "filtered_resps": ["3"], "doc_hash": "x"},
        {"doc_id": 1, "doc": {"scene_name": "s1", "question": "How many beds?"}, "target": "2",
         "resps": [["1"]], "filtered_resps": [["1"]]},
    ]
    # lmms-eval writes OUT/<model>/<date>_samples_<task>.jsonl
    (tmp_path / "model").mkdir()
    log = tmp_path / "model" / "20250101_120000_samples_vsibench.jsonl"
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert detect_format(tmp_path) == "lmms-eval"
    read = read_predictions(tmp_path, ITEMS)
    assert read.responses == {"1": "3", "2": "1"} and read.errors == []


def test_export_join_on_scene_and_question(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"questions": [
        {"scene_name": "s2", "question": "How many  chairs?", "gemini_answer": "4"},
        {"scene_name": "s9", "question": "How many chairs?", "gemini_answer": "4"},
    ]}))
    read = read_predictions(path, ITEMS)
    assert read.format == "export" and read.responses == {"3": "4"}
    assert read.errors[0].line == 2 and "matches no item" in read.errors[0].message
    assert str(read.errors[0]).startswith(f"{path}: entry 2: field 'question'")  # an entry, not a line


def test_ambiguous_join_is_refused_for_that_row_and_the_rest_is_read(tmp_path):
    # newcomer report: one ambiguous id-less row used to abort the whole scoring
    path = tmp_path / "r.json"
    path.write_text(json.dumps([{"scene_name": "s1", "question": "How many chairs?", "response": "4"},
                                {"scene_name": "s2", "question": "How many chairs?", "response": "5"}]))
    read = read_predictions(path, [*ITEMS, item("4")])
    assert read.responses == {"3": "5"}
    assert [str(e) for e in read.errors] == [
        f"{path}: entry 1: field 'question': scene 's1' question 'How many chairs?' matches 2 items (1, 4); "
        "refused (give predictions with ids)"]


def test_messages_name_the_real_problem(tmp_path):
    # newcomer report: "response is not a string: None" for a missing key, "matches no item" for a bad doc
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text('{"id": 1}\n{"id": 2, "response": null}\n')
    assert [str(e) for e in read_predictions(jsonl, ITEMS).errors] == [
        f"{jsonl}:1: field 'response': missing (each line needs 'id' and 'response')",
        f"{jsonl}:2: field 'response': response is not a string: None"]
    lmms = tmp_path / "samples_vsibench.jsonl"
    lmms.write_text(json.dumps({"doc": "notadict", "resps": [["2"]], "filtered_resps": ["2"]}) + "\n")
    assert [str(e) for e in read_predictions(lmms, ITEMS).errors] == [
        f"{lmms}:1: field 'doc': not an object: 'notadict', and no metric field holds the item "
        "(an lmms-eval --log_samples line?)"]


def test_gemini_export_joins_all_291(shared_data):
    from spatialbench.benchmarks.vsibench import load_vsibench
    from support.shared_data import require_file

    root = require_file(shared_data / "vsibench" / "official_samples" / "gemini3flash_5scenes")
    items = load_vsibench(root / "questions")
    read = read_predictions(root / "responses", items)
    assert len(read.responses) == 291 and read.errors == []


def test_jsonl_without_response_uses_the_one_answer_field_and_refuses_two(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": 1, "prediction": "2"}\n{"id": 2, "gemini_answer": "3"}\n')
    assert read_predictions(path, ITEMS).responses == {"1": "2", "2": "3"}
    path.write_text('{"id": 1, "response": "2", "gt_answer": "5"}\n')  # "response" names it: read
    assert read_predictions(path, ITEMS).responses == {"1": "2"}
    path.write_text('{"id": 1, "correct_answer": "2", "gpt_answer": "3"}\n')
    with pytest.raises(ValueError, match=f"{path}:1: several fields could be the model's answer: "
                                         "correct_answer, gpt_answer; refused"):
        read_predictions(path, ITEMS)


def test_prediction_ids_of_other_json_types(tmp_path):
    # 3.0 is the whole number 3 (as run files take it); true / 1.5 / a list are not ids: named type errors
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": 3.0, "response": "2"}\n{"id": true, "response": "2"}\n'
                    '{"id": 1.5, "response": "2"}\n{"id": [1], "response": "2"}\n')
    read = read_predictions(path, ITEMS)
    assert read.responses == {"3": "2"}
    assert [(e.line, e.field, e.message) for e in read.errors] == [
        (2, "id", "not a string or whole number: True"),
        (3, "id", "not a string or whole number: 1.5"),
        (4, "id", "not a string or whole number: [1]"),
    ]
