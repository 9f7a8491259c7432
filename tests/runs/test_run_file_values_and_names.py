"""Run files, option values and model names: each bad value named with its file, key or flag."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.benchmarks import BENCHMARKS, get_benchmark
from spatialbench.benchmarks.vsibench import SPEC as VSIBENCH
from spatialbench.cli.main import app
from spatialbench.registry import BrokenEntryError
from support.vsi_data import make_vsibench


@pytest.fixture(scope="module")
def vsi(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vsi") / "data"
    make_vsibench(root, n_videos=1, per_video=4)
    return root


def _invoke(*args: object, **kwargs):  # type: ignore[no-untyped-def]
    return CliRunner(**kwargs).invoke(app, [str(a) for a in args])


def _run(data: Path, out: Path, *extra: object, model: str = "chance-random"):  # type: ignore[no-untyped-def]
    return _invoke("run", "--benchmark", "vsibench", "--data", data, "--model", model, "--out", out,
                   "--no-progress", *extra)


def _lines(result) -> list[str]:  # type: ignore[no-untyped-def]
    return result.output.strip().splitlines()


def _one_line(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


# 1: typed option values ------------------------------------------------------------------------------------


def test_pruned_ids_that_name_no_file_fail_before_the_run_folder(vsi: Path, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = _run(vsi, tmp_path / "run", "-o", "pruned_ids=12")
    assert result.exit_code == 2, result.output
    assert _lines(result) == ["error: benchmark option 'pruned_ids': no such file: 12"]
    assert not (tmp_path / "run").exists()


def test_numeric_pruned_ids_in_a_run_file_name_the_file_and_key(vsi: Path, tmp_path: Path) -> None:
    file = tmp_path / "run.yaml"
    file.write_text(f"out: run\ndata: {{benchmark: vsibench, path: {vsi}, options: {{pruned_ids: 12}}}}\n"
                    "model: {name: chance-random}\n")
    result = _invoke("run", "--config", file, "--no-progress")
    assert result.exit_code == 2, result.output
    assert _lines(result) == [
        f"Error: {file}: Invalid value for data.options.pruned_ids: takes text, not the number 12"
    ]
    assert not (tmp_path / "run").exists()


def test_score_with_a_missing_pruned_id_list_names_the_option(vsi: Path) -> None:
    result = _invoke("score", "-a", vsi, "-p", vsi / "test.jsonl", "--pruned-ids", "/tmp/none-j9.txt")
    assert result.exit_code == 2
    assert _lines(result) == [
        "error: pruned-id list (--pruned-ids, or --option pruned_ids=FILE) not found: /tmp/none-j9.txt"
    ]


# 6: run-file errors name the file and the key path, one line; types are strict -----------------------------

BASE = "out: run\nmodel: {{name: chance-random{model}}}\ndata: {{benchmark: vsibench, path: {data}{extra}}}\n"


@pytest.mark.parametrize(
    ("extra", "model", "message"),
    [
        (", limit: '5'", "", "data.limit: Input should be a valid integer"),
        (", limit: true", "", "data.limit: Input should be a valid integer"),
        ("", ", concurrency: '8'", "model.concurrency: Input should be a valid integer"),
        ("", ", temperature: yes", "model.temperature: Input should be a valid number"),
        (", frames: all", "", "data.frames: Extra inputs are not permitted"),
        (", options: {subset: [full]}", "",
         "data.options.subset: Input should be text, a number or true/false"),
        (", ids: ids.txt", "",
         "data.ids: a list of item ids (the --ids option reads a file; a run file lists the ids: "
         "ids: [1, 2])"),
    ],
)
def test_bad_values_in_a_run_file_name_the_file_and_key(vsi: Path, tmp_path: Path, extra, model, message):
    file = tmp_path / "run.yaml"
    file.write_text(BASE.format(data=vsi, extra=extra, model=model))
    result = _invoke("run", "--config", file, "--no-progress")
    assert result.exit_code == 2, result.output
    assert _lines(result) == [f"Error: {file}: Invalid value for {message}"]
    assert not (tmp_path / "run").exists()


def test_whole_number_ids_in_a_run_file_are_the_official_ids(vsi: Path, tmp_path: Path) -> None:
    file = tmp_path / "run.yaml"
    file.write_text(BASE.format(data=vsi, extra=", ids: [2, 3]", model=""))
    result = _invoke("run", "--config", file, "--no-progress")
    assert result.exit_code == 0, result.output
    assert "2 items: 0 already answered" in result.output


def test_a_bad_flag_beside_a_run_file_is_still_named_as_the_flag(vsi: Path, tmp_path: Path) -> None:
    file = tmp_path / "run.yaml"
    file.write_text(BASE.format(data=vsi, extra="", model=""))
    result = _invoke("run", "--config", file, "--concurrency", "0", "--no-progress")
    assert result.exit_code == 2
    assert _lines(result) == [
        "Error: Invalid value for --concurrency: Input should be greater than or equal to 1"
    ]


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("run.yaml", "out: run\ndata:\n  benchmark: [vsibench\n",
         "line 4, column 1: expected ',' or ']', but got '<stream end>' "
         "(while parsing a flow sequence from line 3)"),
        ("run.yaml", "out: run\n  model: x\n", "line 2, column 8: mapping values are not allowed here"),
        ("run.toml", 'out = "run"\n[data\n',
         "line 2, column 6: Expected ']' at the end of a table declaration"),
    ],
)
def test_unparsable_run_files_are_one_line_with_the_line(tmp_path: Path, name, text, message) -> None:
    file = tmp_path / name
    file.write_text(text)
    result = _invoke("run", "--config", file)
    assert result.exit_code == 2
    assert _lines(result) == [f"Error: Invalid value for --config {file}: {message}"]


# 9a: relative paths in a run file are the file's folder's ---------------------------------------------------


def test_relative_out_and_data_path_resolve_against_the_run_file(vsi: Path, tmp_path: Path, monkeypatch):
    folder = tmp_path / "configs"
    folder.mkdir()
    (folder / "data").symlink_to(vsi, target_is_directory=True)
    file = folder / "run.toml"
    file.write_text('out = "runs/a"\n[data]\nbenchmark = "vsibench"\npath = "data"\n'
                    '[model]\nname = "chance-random"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = _invoke("run", "--config", file, "--no-progress")
    assert result.exit_code == 0, result.output
    assert (folder / "runs" / "a" / "scores.json").is_file() and list(elsewhere.iterdir()) == []
    # a flag is the working folder's
    flagged = _invoke("run", "--config", file, "--out", "mine", "--no-progress")
    assert flagged.exit_code == 0, flagged.output
    assert (elsewhere / "mine" / "scores.json").is_file()


# 7: near misses ---------------------------------------------------------------------------------------------


def test_misspelt_baseline_is_suggested_among_model_names(vsi: Path, tmp_path: Path) -> None:
    result = _run(vsi, tmp_path / "run", model="chance-randon")
    assert result.exit_code == 2
    assert _lines(result) == [
        "error: unknown model (back end or baseline) 'chance-randon'; did you mean 'chance-random'? Known: "
        "anthropic, chance-frequency, chance-frequency-restricted, chance-frequency-string, chance-random, "
        "gemini, hf, openai, openai-compatible"
    ]
    assert not (tmp_path / "run").exists()


def test_bare_model_name_hints_its_provider(vsi: Path, tmp_path: Path) -> None:
    result = _run(vsi, tmp_path / "run", model="gpt-4o")
    assert result.exit_code == 2
    expected = "unknown model (back end or baseline) 'gpt-4o'; did you mean 'openai:gpt-4o'? Known:"
    assert expected in result.output


# 8: broken lazy benchmark entries ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("spatialbench_no_such_module_j9:SPEC", "no module named 'spatialbench_no_such_module_j9'"),
        ("spatialbench.benchmarks.vsibench:NO_SPEC", "module 'spatialbench.benchmarks.vsibench' has no "
                                                     "attribute 'NO_SPEC'"),
        ("spatialbench.benchmarks.vsibench:load_vsibench", "is a function, not a BenchmarkSpec"),
        ("spatialbench.benchmarks.vsibench:SPEC", "its name is 'vsibench', not 'broken'"),
    ],
)
def test_a_broken_lazy_benchmark_is_one_error_naming_the_entry(vsi, tmp_path, monkeypatch, target, reason):
    monkeypatch.setitem(BENCHMARKS._lazy, "broken", target)
    expected = f"benchmark 'broken' ({target}): {reason}"
    with pytest.raises(BrokenEntryError) as raised:
        get_benchmark("broken")
    assert str(raised.value) == expected
    result = _invoke("run", "--benchmark", "broken", "--data", vsi, "--model", "chance-random",
                     "--out", tmp_path / "run")
    assert result.exit_code == 2 and _lines(result) == [f"error: {expected}"]
    assert "broken" not in BENCHMARKS._items


def test_registering_a_spec_under_another_name_is_refused() -> None:
    with pytest.raises(ValueError, match="'vsibench-copy': its name is 'vsibench', not 'vsibench-copy'"):
        BENCHMARKS.add("vsibench-copy", VSIBENCH)
    assert "vsibench-copy" not in BENCHMARKS


# 10: help shows the real defaults ---------------------------------------------------------------------------


def test_run_help_shows_the_transport_defaults() -> None:
    text = _one_line(_invoke("run", "--help", env={"COLUMNS": "240"}).output)
    assert "Requests in flight (default: 8)" in text
    assert "Seconds per attempt (default: 120)" in text
    assert "Attempts per request (default: 6)" in text
    assert "ApiSettings" not in text and "RetryPolicy" not in text
    assert "its relative out and data.path resolve against its folder" in text
