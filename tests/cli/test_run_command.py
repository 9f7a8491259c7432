import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.runs import STORE_NAME
from support.vsi_data import make_vsibench


def _args(root: Path, out: Path, model: str | None, *extra: str) -> list[str]:
    base = ["run", "--benchmark", "vsibench", "--data", str(root), "--out", str(out), "--no-progress"]
    return [*base, *(["--model", model] if model else []), *extra]


def test_cli_runs_selected_ids_with_a_chance_baseline(tmp_path: Path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=2, per_video=4)
    ids = tmp_path / "ids.txt"
    ids.write_text("# ids to run\n1\n2\n3\n\n7\n")
    out = tmp_path / "run"
    args = _args(root, out, "chance-random", "--ids", str(ids), "--limit", "3", "-o", "subset=full")
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    # id 2 is a counting item: chance-random has no chance level for it (not applicable, not "answered")
    assert "3 items: 0 already answered, 2 answered now, 1 not applicable, 0 empty, 0 failed" in result.output
    with sqlite3.connect(out / STORE_NAME) as conn:
        stored = sorted(i for (i,) in conn.execute("SELECT item_id FROM results"))
    # the ids in benchmark-file order, then the first three
    in_file = [json.loads(line)["id"] for line in (root / "test.jsonl").read_text().splitlines()]
    assert stored == sorted(str(i) for i in [i for i in in_file if i in (1, 2, 3, 7)][:3])
    assert (out / "config.json").exists() and (out / "scores.json").exists()


@pytest.mark.parametrize(
    "extra",
    [["--frames", "uniform:zero"], ["-o", "novalue"], ["--order", "sideways"], ["--prompt", "prefix=x"]],
)
def test_cli_rejects_bad_options(tmp_path: Path, extra: list[str]) -> None:
    result = CliRunner().invoke(app, _args(tmp_path, tmp_path / "o", "chance-random", *extra))
    assert result.exit_code == 2 and "Invalid value" in result.output, result.output


def test_cli_reports_unreadable_rows_and_runs_the_rest(tmp_path: Path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=2)
    with (root / "test.jsonl").open("a") as handle:
        handle.write("{not json\n")
    result = CliRunner().invoke(app, _args(root, tmp_path / "run", "chance-frequency"))
    assert result.exit_code == 0, result.output
    assert "2 items: 0 already answered, 2 answered now" in result.output
    assert "1 benchmark row(s) could not be read" in result.output and "test.jsonl:3" in result.output


def test_cli_setup_errors_are_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=1)
    ids = tmp_path / "ids.txt"
    ids.write_text("nope\n")
    cases = [
        (["--model", "openai:gpt-4o"], "OPENAI_API_KEY is not set"),
        (["--model", "opnai:gpt-4o"], "did you mean 'openai'"),
        (["--model", "chance-random", "--ids", str(ids)], "not in the benchmark"),
    ]
    for extra, message in cases:
        result = CliRunner().invoke(app, _args(root, tmp_path / "o", None, *extra))
        assert result.exit_code == 2 and message in result.output, result.output


def test_a_human_run_s_config_names_serve_not_an_unknown_model(tmp_path: Path) -> None:
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.web import human

    make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    spec = get_benchmark("vsibench")
    human.start(tmp_path / "work", "ana", spec, tmp_path / "data", ["0"])
    result = CliRunner().invoke(app, ["run", "--config", str(tmp_path / "work" / "human-ana" / "config.json"),
                                      "--no-progress"])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert result.output == (
        "error: model 'human:ana' is a human evaluation: human runs cannot be re-run by `spatialbench run`; "
        f"continue it with `spatialbench serve --data {tmp_path / 'data'} --benchmark vsibench "
        f"--workdir {tmp_path / 'work'}`, page Human evaluation, name ana\n")


def test_a_human_run_s_config_with_out_names_the_folder_the_run_lives_in(tmp_path: Path) -> None:
    """--out does not move a human run: serve's --workdir is where human-ana is, not the parent of --out."""
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.web import human

    make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    human.start(tmp_path / "work", "ana", get_benchmark("vsibench"), tmp_path / "data", ["0"])
    result = CliRunner().invoke(app, ["run", "--config", str(tmp_path / "work" / "human-ana" / "config.json"),
                                      "--out", str(tmp_path / "x" / "hx3"), "--no-progress"])
    assert result.exit_code == 2, result.output
    assert f"--workdir {tmp_path / 'work'}`, page Human evaluation, name ana\n" in result.output

