"""Damaged or foreign run folders are one line naming the file, exit 2, nothing made (newcomer findings).

``merge`` of a shard whose ``run.sqlite`` is cut short or not a database, or whose ``config.json`` records a
shard that does not parse, printed a traceback and left an empty ``--out``; ``score --run`` named no file
for the bad shard; ``serve --runs`` started on folders that are no runs.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app


def _invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def shard_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ``run --model chance-frequency --shard 1/4`` folder over 12 media-less VSI-Bench items."""
    root = tmp_path_factory.mktemp("damaged")
    records = [{"id": k, "dataset": "scannet", "scene_name": "s0", "question_type": "object_counting",
                "question": f"q{k}?", "options": None, "ground_truth": "3"} for k in range(1, 13)]
    data = root / "test.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = root / "S"
    code, output = _invoke("run", "--benchmark", "vsibench", "--data", data, "--model", "chance-frequency",
                           "--shard", "1/4", "--out", out, "--no-progress")
    assert code == 0, output
    return out


def _copy(run: Path, where: Path) -> Path:
    return Path(shutil.copytree(run, where))


@pytest.mark.parametrize("damage", ["truncated", "not a database"])
def test_merge_of_a_damaged_store_is_one_line_and_makes_no_folder(shard_run, tmp_path, damage) -> None:
    broken = _copy(shard_run, tmp_path / "B")
    store = broken / "run.sqlite"
    if damage == "truncated":
        store.write_bytes(store.read_bytes()[:3000])
    else:
        store.write_text("garbage")
    code, output = _invoke("merge", broken, "--out", tmp_path / "M")
    assert code == 2
    assert output.strip().startswith(f"error: {store}: not a readable run store")
    assert len(output.strip().splitlines()) == 1 and not (tmp_path / "M").exists()


def test_a_shard_that_does_not_parse_names_the_file_and_field(shard_run, tmp_path) -> None:
    broken = _copy(shard_run, tmp_path / "B")
    config = broken / "config.json"
    record = json.loads(config.read_text())
    record["config"]["data"]["shard"] = "9/4"
    config.write_text(json.dumps(record))
    expected = f"error: {config}: data.shard: a shard is K/N with 1 <= K <= N (e.g. 1/4), got '9/4'"
    for args in (("merge", broken, "--out", tmp_path / "M"), ("score", "--run", broken)):
        code, output = _invoke(*args)
        assert (code, output.strip()) == (2, expected), args
    assert not (tmp_path / "M").exists()


def test_serve_refuses_runs_that_are_not_run_folders(shard_run, tmp_path, monkeypatch) -> None:
    import uvicorn

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("serve started a server on folders that are no runs")

    monkeypatch.setattr(uvicorn, "run", never)
    data = shard_run.parent / "test.jsonl"
    code, output = _invoke("serve", "--data", data, "--runs", tmp_path / "nowhere", "--port", "1")
    assert (code, output.strip()) == (2, f"error: {tmp_path / 'nowhere'}: not a run folder (no config.json)")
    broken = _copy(shard_run, tmp_path / "B")
    (broken / "config.json").write_text("{not json")
    code, output = _invoke("serve", "--data", data, "--runs", broken, "--port", "1")
    assert code == 2 and output.startswith(f"error: {broken / 'config.json'}: not a run configuration")
