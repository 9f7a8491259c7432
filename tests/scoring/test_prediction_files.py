"""Prediction files people have: CSV / TSV / VLMEvalKit .xlsx tables, byte-order marks, non-UTF-8 bytes,
and exports with more than one field that could be the answer (refused, never scored from a truth)."""

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

from spatialbench.benchmarks.vsibench import SPEC, load_vsibench
from spatialbench.cli.main import app
from spatialbench.scoring.predictions import detect_format, read_predictions
from spatialbench.scoring.scorer import score_items
from support.prediction_items import ITEMS
from support.shared_data import require_file

BOM = b"\xef\xbb\xbf"


def test_plain_csv_id_response(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text('id,response\n1,2\n2,"three, I think"\n\n3,"multi\nline"\n')
    read = read_predictions(path, ITEMS)
    assert read.format == "table" and read.errors == []
    assert read.responses == {"1": "2", "2": "three, I think", "3": "multi\nline"}


def test_tsv_and_a_tab_separated_csv(tmp_path):
    for name in ("p.tsv", "p.csv"):  # VLMEvalKit writes tab-separated ".csv" files
        path = tmp_path / name
        path.write_text("index\tprediction\n1\tB, because\n")
        assert read_predictions(path, ITEMS).responses == {"1": "B, because"}


def test_utf8_bom_loads_in_json_jsonl_and_csv(tmp_path):
    files = {
        "p.jsonl": b'{"id": 1, "response": "2"}\n',
        "p.json": json.dumps([{"id": 1, "response": "2"}]).encode(),
        "p.csv": b"id,response\n1,2\n",
    }
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(BOM + data)
        read = read_predictions(path, ITEMS)
        assert (read.responses, read.errors) == ({"1": "2"}, []), name


def test_bom_annotations_load(tmp_path):
    path = tmp_path / "test.jsonl"
    record = {"id": 1, "dataset": "scannet", "scene_name": "s1", "question_type": "object_counting",
              "question": "How many chairs?", "ground_truth": "2", "options": None}
    path.write_bytes(BOM + (json.dumps(record) + "\n").encode())
    items = load_vsibench(path)
    assert [i.id for i in items] == ["1"] and items.errors == []


@pytest.mark.parametrize("name, data, where", [
    ("p.jsonl", b'{"id": 1, "response": "2"}\n{"id": 2, "response": "caf\xe9"}\n{"id": 3, "response": "4"}\n',
     "2: not UTF-8 text (byte 0xe9 at column 27)"),
    ("p.csv", b"id,response\n1,2\n2,caf\xe9\n3,4\n", "3: not UTF-8 text (byte 0xe9 in column 2)"),
])
def test_non_utf8_row_names_file_and_line_and_the_other_rows_are_kept(tmp_path, name, data, where):
    path = tmp_path / name
    path.write_bytes(data)
    read = read_predictions(path, ITEMS)
    assert read.responses == {"1": "2", "3": "4"}  # nothing else lost
    assert [str(e) for e in read.errors] == [f"{path}:{where}; save the file as UTF-8"]


def test_non_utf8_json_file_is_one_error_naming_the_line(tmp_path):
    path = tmp_path / "p.json"
    path.write_bytes(b'[{"id": 1, "response": "2"},\n {"id": 2, "response": "\xff"}]')
    read = read_predictions(path, ITEMS)
    assert read.responses == {}
    assert [str(e) for e in read.errors] == [
        f"{path}:2: not UTF-8 text (byte 0xff at column 25); save the file as UTF-8"]


@pytest.mark.parametrize("fields", [("correct_answer", "gpt_answer"), ("response", "prediction")])
def test_export_with_two_possible_answer_fields_is_refused_naming_them(tmp_path, fields):
    path = tmp_path / "r.json"
    path.write_text(json.dumps([{"id": 1, fields[0]: "2", fields[1]: "3"}]))
    with pytest.raises(ValueError) as err:
        read_predictions(path, ITEMS)
    assert str(err.value) == (
        f"{path}: entry 1: several fields could be the model's answer: {fields[0]}, {fields[1]}; refused, so "
        "that nothing is scored from a ground truth (name the response field with --response-field NAME)")
    read = read_predictions(path, ITEMS, response_field=fields[1])  # named: read that one
    assert read.responses == {"1": "3"}


def test_an_export_whose_only_answer_field_is_a_ground_truth_is_refused(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("id,gt_answer\n1,2\n")
    with pytest.raises(ValueError, match=r"r.csv:2: its only answer field 'gt_answer' names a ground truth"):
        read_predictions(path, ITEMS)


def test_cli_refuses_an_ambiguous_export_with_exit_2_and_writes_nothing(tmp_path):
    annotations = tmp_path / "test.jsonl"
    annotations.write_text(json.dumps({
        "id": 1, "dataset": "scannet", "scene_name": "s1", "question_type": "object_counting",
        "question": "How many chairs?", "ground_truth": "2"}) + "\n")
    predictions = tmp_path / "r.json"
    predictions.write_text(json.dumps({"questions": [{"id": 1, "correct_answer": "2", "gpt_answer": "5"}]}))
    out = tmp_path / "out"
    args = ["score", "-a", str(annotations), "-p", str(predictions), "-o", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "several fields could be the model's answer: correct_answer, gpt_answer" in result.output
    assert not (out / "scores.json").exists()
    ok = CliRunner().invoke(app, [*args, "--response-field", "gpt_answer"])
    assert ok.exit_code == 0, ok.output
    assert json.loads((out / "scores.json").read_text())["overall"] == 0.0  # 5 for 2: MRA 0


def _vlmevalkit(shared_data):
    root = shared_data / "vlmevalkit"
    items = load_vsibench(require_file(root / "demo_seed5_annotations.jsonl"))
    return root, items, require_file(root / "noisy_loopback_VSI-Bench_32frame.xlsx")


def test_vlmevalkit_prediction_xlsx_is_read(shared_data):
    root, items, xlsx = _vlmevalkit(shared_data)
    assert detect_format(xlsx) == "table"
    read = read_predictions(xlsx, items)
    assert read.errors == [] and len(read.responses) == len(items) == 61
    assert read.responses["11"] == "It is approximately 50 cm." and read.responses["0"] == "2"


def test_robust_mode_equals_vlmevalkit_but_for_the_two_unit_conversions(shared_data):
    # VLMEvalKit's rule-based scorer strips <think> and reads numbers out of sentences, but converts no
    # unit (docs/workflows/score.md): "It is approximately 50 cm." for 0.5 m and "1.67 meters" for 167 cm
    # score 0 there.
    root, items, xlsx = _vlmevalkit(shared_data)
    result = score_items(items, read_predictions(xlsx, items).responses, SPEC.scoring, extract="robust")
    scored = root / "noisy_loopback_VSI-Bench_32frame_extract_matching.xlsx"
    per_item = pd.read_excel(scored, sheet_name="ALL", dtype=str, keep_default_na=False)
    theirs = {r["index"]: float(r["hit"] or r["MRA:.5:.95:.05"]) for _, r in per_item.iterrows()}
    rows = result.rows.set_index("id")
    differ = {i for i, s in theirs.items() if abs(rows.loc[i, "score"] - s) > 1e-12}
    assert differ == {"11", "26"} and (rows.loc[["11", "26"], "score"] == 1.0).all()
    rows.loc[["11", "26"], "score"] = 0.0
    table = SPEC.scoring.table(rows.reset_index())
    assert table.average == pytest.approx(85.84821428571428, abs=1e-9)  # VLMEvalKit's overall
    assert table.scores["object_size_estimation"] == pytest.approx(76.66666666666667, abs=1e-9)


def test_a_vlmevalkit_folder_of_several_tables_is_refused_naming_them(shared_data, tmp_path):
    root, items, xlsx = _vlmevalkit(shared_data)
    for name in (xlsx.name, xlsx.stem + "_extract_matching.xlsx", xlsx.stem + "_extract_matching_acc.csv"):
        (tmp_path / name).write_bytes((root / name).read_bytes())  # the folder VLMEvalKit writes
    assert detect_format(tmp_path) == "table"
    with pytest.raises(ValueError, match=r"3 tables \(noisy_loopback_VSI-Bench_32frame.xlsx, .*\); give the "
                                         r"prediction file itself"):
        read_predictions(tmp_path, items)
    (tmp_path / (xlsx.stem + "_extract_matching.xlsx")).unlink()
    (tmp_path / (xlsx.stem + "_extract_matching_acc.csv")).unlink()
    assert len(read_predictions(tmp_path, items).responses) == 61  # one table: read


@pytest.mark.parametrize("data", [b"not a zip", b"PK\x03\x04garbage"])
def test_a_damaged_xlsx_is_one_error_naming_the_file(tmp_path, data):
    path = tmp_path / "p.xlsx"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=rf"^{path}: not a readable .xlsx workbook"):
        read_predictions(path, ITEMS)


def test_a_csv_row_with_more_cells_than_columns_is_a_row_error_and_the_rest_is_read(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("id,response\n1,2\n2,3,4\n3,5\n")
    read = read_predictions(path, ITEMS)
    assert read.responses == {"1": "2", "3": "5"}
    assert [str(e) for e in read.errors] == [f"{path}:3: 3 cells for 2 columns (id, response)"]


def test_a_long_reply_in_a_csv_cell_is_read_whole(tmp_path):
    # the csv module refuses cells over 131,072 characters by default; model replies can be longer
    reply = "x " * 100_000 + "Answer: 2"
    path = tmp_path / "p.csv"
    path.write_text(f'id,response\n1,"{reply}"\n2,3\n')
    read = read_predictions(path, ITEMS)
    assert read.errors == [] and read.responses == {"1": reply, "2": "3"}


@pytest.mark.parametrize("name", ["p.jsonl", "p.json", "p.csv", "p.tsv"])
def test_a_utf16_file_is_refused_as_a_whole_saying_so(tmp_path, name):
    # Excel's "Unicode Text" export writes UTF-16 with a byte-order mark: a set-up error (exit 2 in the
    # CLI, tests/scoring/test_prediction_encodings.py), not a file of skipped rows
    text = {"p.jsonl": '{"id": 1, "response": "2"}\n', "p.json": '[{"id": 1, "response": "2"}]',
            "p.csv": "id,response\n1,2\n", "p.tsv": "id\tresponse\n1\t2\n"}[name]
    path = tmp_path / name
    path.write_bytes(text.encode("utf-16"))
    with pytest.raises(ValueError) as caught:
        read_predictions(path, ITEMS)
    assert str(caught.value) == (
        f"{path}:1: UTF-16 text (it starts with a UTF-16 byte-order mark); save the file as UTF-8")
