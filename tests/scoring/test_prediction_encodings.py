"""Exit codes of ``score`` for prediction files that are not UTF-8.

* A UTF-16 file (Excel's "Unicode Text" export, byte-order mark): a set-up error like any unreadable
  input file — one line naming the file, exit 2, nothing scored.
* Some lines not UTF-8: those lines are skipped, each named (file, line, byte); the others are scored,
  exit 0 — or exit 1 ("no usable prediction") when no line was readable.
"""

import json

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app

RECORDS = [{"id": k, "dataset": "scannet", "scene_name": "s", "question_type": "object_counting",
            "question": f"How many chairs in room {k}?", "ground_truth": "2"} for k in (1, 2)]


def _score(tmp_path, predictions):
    annotations = tmp_path / "a.jsonl"
    annotations.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    return CliRunner().invoke(app, ["score", "-a", str(annotations), "-p", str(predictions)])


@pytest.mark.parametrize("name", ["p.csv", "p.jsonl"])
def test_a_utf16_prediction_file_is_a_set_up_error(tmp_path, name):
    path = tmp_path / name
    text = "id,response\n1,2\n2,2\n" if name == "p.csv" else '{"id": 1, "response": "2"}\n'
    path.write_bytes(text.encode("utf-16"))
    result = _score(tmp_path, path)
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        f"error: {path}:1: UTF-16 text (it starts with a UTF-16 byte-order mark); save the file as UTF-8"]


def test_non_utf8_lines_are_skipped_named_and_the_rest_is_scored(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_bytes(b'{"id": 1, "response": "2"}\n{"id": 2, "response": "caf\xe9"}\n')
    result = _score(tmp_path, path)
    assert result.exit_code == 0, result.output
    assert (f"{path}:2: not UTF-8 text (byte 0xe9 at column 27); save the file as UTF-8"
            in result.output), result.output
    assert "missing predictions: 1" in result.output and "| all | 100.0 |" not in result.output


def test_a_file_of_only_non_utf8_lines_scores_nothing_exit_1(tmp_path):
    path = tmp_path / "p.csv"
    path.write_bytes(b"id,response\n1,caf\xe9\n")
    result = _score(tmp_path, path)
    assert result.exit_code == 1, result.output
    assert f"error: no usable prediction in {path} (1 rows skipped, listed above)" in result.output


def test_an_empty_prediction_file_says_it_has_no_rows(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text("")
    result = _score(tmp_path, path)
    assert result.exit_code == 1, result.output
    assert f"error: no usable prediction in {path}: the file has no rows" in result.output
    assert "listed above" not in result.output


def test_a_line_with_a_lone_surrogate_is_named_and_the_rest_scored(tmp_path):
    """Issue 26 item 3: ``"2 \\ud83d"`` (half an emoji) crashed writing items.csv; now its line is named."""
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": 1, "response": "2 \\ud83d"}\n{"id": 2, "response": "2"}\n')
    result = _score(tmp_path, path)
    assert result.exit_code == 0, result.output
    assert (f"{path}:1: field 'response': a lone UTF-16 surrogate (\\ud83d at character 3): not text"
            in result.output), result.output
    assert "missing predictions: 1" in result.output and "| all | 50.0 |" in result.output
