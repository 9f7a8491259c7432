"""Inputs nested 100,000 deep, a key given twice, a word in a score cell: one line each (issue 22 newcomers).

Found by a newcomer: a deeply nested run file or annotation line raised RecursionError (a traceback),
a YAML run file giving ``out`` twice ran with the last one silently, and ``compare`` of a run whose
``items.csv`` held ``abc`` as a score failed inside pandas.
"""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.records.files import TOO_DEEP
from support.vsi_data import make_vsibench

DEPTH = 100_000


def _one_line(args: list[str], code: int = 2) -> str:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == code, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(("name", "text"), [
    ("deep.yaml", "out: " + "[" * DEPTH + "]" * DEPTH + "\n"),
    ("deep.json", "[" * DEPTH + "]" * DEPTH),
    ("deep.toml", "a = " + "[" * DEPTH + "]" * DEPTH + "\n"),
])
def test_a_deeply_nested_run_file_is_one_line(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text(text)
    line = _one_line(["run", "--config", str(tmp_path / name), "--model", "chance-random"])
    assert line == f"Error: Invalid value for --config {tmp_path / name}: {TOO_DEEP}"


def test_a_key_given_twice_in_a_yaml_run_file_is_named_with_its_line(tmp_path: Path) -> None:
    file = tmp_path / "run.yaml"
    file.write_text("data: {benchmark: vsibench, path: data}\nout: x\nmodel: {name: chance-random}\nout: y\n")
    assert _one_line(["run", "--config", str(file), "--no-progress"]) == (
        f"Error: Invalid value for --config {file}: line 4, column 1: key 'out' given twice "
        "(a run file gives each setting once)")
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_a_deeply_nested_annotation_line_names_the_file(tmp_path: Path) -> None:
    annotations = tmp_path / "deep.jsonl"
    annotations.write_text('{"id": 1, "x": ' + "[" * DEPTH + "]" * DEPTH + "}\n")
    result = CliRunner().invoke(app, ["score", "-b", "vsibench", "-a", str(annotations), "--predictions",
                                      str(annotations)])
    assert result.exit_code == 2 and "RecursionError" not in result.output, result.output
    assert f"{annotations}:1: {TOO_DEEP}" in result.output


def test_compare_with_a_word_in_a_score_cell_names_the_run_and_field(tmp_path: Path) -> None:
    make_vsibench(tmp_path / "data", n_videos=1, per_video=4)
    for name in ("a", "b"):
        result = CliRunner().invoke(app, ["run", "--benchmark", "vsibench", "--data", str(tmp_path / "data"),
                                          "--model", "chance-frequency", "--out", str(tmp_path / name),
                                          "--no-progress"])
        assert result.exit_code == 0, result.output
    items = tmp_path / "b" / "items.csv"
    lines = items.read_text().splitlines()
    first = lines[1].split(",")
    first[4] = "abc"  # the score column (id, task, prediction, extracted, score, ...)
    items.write_text("\n".join([lines[0], ",".join(first), *lines[2:]]) + "\n")
    line = _one_line(["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "cmp")])
    item = first[0].strip('"')
    assert line.startswith(f"error: {items}: column score, item {item}: 'abc' is not a number"), line
