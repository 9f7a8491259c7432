"""Configs round-trip (issue 22 item 6): ``--config RUN/config.json`` re-runs that run; absolute paths stay.

A run records ``out`` and ``data.path`` absolute; reading its ``config.json`` back (or a YAML file made
from its ``config`` section, kept in another folder) must give the same folder, not one re-resolved
against the file's folder.
"""

import json
import os
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.runs.config_file import read_config_file, run_config
from support.vsi_data import make_vsibench


def _first_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run a 2-item baseline with relative ``--out`` and ``--data`` from ``tmp_path``; return the folder."""
    make_vsibench(tmp_path / "data", n_videos=1, per_video=4)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["run", "--benchmark", "vsibench", "--data", "data", "--model",
                                      "chance-frequency", "--limit", "2", "--out", "runs/a", "--no-progress"])
    assert result.exit_code == 0, result.output
    return tmp_path / "runs" / "a"


def test_a_run_records_out_and_data_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = _first_run(tmp_path, monkeypatch)
    config = json.loads((run / "config.json").read_text())["config"]
    assert config["out"] == str(run) and config["data"]["path"] == str(tmp_path / "data")


def test_config_json_of_a_run_resumes_that_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = _first_run(tmp_path, monkeypatch)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the record's absolute paths hold from any working folder
    again = CliRunner().invoke(app, ["run", "--config", str(run / "config.json"), "--no-progress"])
    assert again.exit_code == 0, again.output
    assert "2 items: 2 already answered, 0 answered now" in again.output
    more = CliRunner().invoke(app, ["run", "--config", str(run / "config.json"), "--limit", "3",
                                    "--no-progress"])
    assert "3 items: 2 already answered, 1 answered now" in more.output, more.output
    assert sorted(os.listdir(elsewhere)) == []  # nothing written where the command ran


def test_a_yaml_made_from_the_record_keeps_its_absolute_out(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    run = _first_run(tmp_path, monkeypatch)
    record = json.loads((run / "config.json").read_text())["config"]
    other = tmp_path / "configs" / "deep"
    other.mkdir(parents=True)
    (other / "again.yaml").write_text(yaml.safe_dump(record))
    config = run_config(other / "again.yaml")
    assert config.out == str(run) and config.data.path == str(tmp_path / "data")
    assert config == run_config(run / "config.json")


def test_an_old_record_with_a_relative_out_is_its_own_folder(tmp_path: Path) -> None:
    folder = tmp_path / "runs" / "old"
    folder.mkdir(parents=True)
    record = {"config": {"out": "runs/old", "data": {"benchmark": "vsibench", "path": str(tmp_path)},
                         "model": {"name": "chance-random"}}, "environment": {}}
    (folder / "config.json").write_text(json.dumps(record))
    assert read_config_file(folder / "config.json")["out"] == str(folder)  # not runs/old/runs/old


def test_a_broken_config_json_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "config.json"
    bad.write_text('{"config": ')
    result = CliRunner().invoke(app, ["run", "--config", str(bad)])
    assert result.exit_code == 2 and f"--config {bad}: line 1, column 12" in result.output, result.output


def _copied(run: Path, tmp_path: Path) -> Path:
    """Copy ``run``'s config.json into another folder (its ``out`` still names ``run``)."""
    copy = tmp_path / "COPY"
    copy.mkdir()
    (copy / "config.json").write_text((run / "config.json").read_text())
    return copy / "config.json"


def test_a_copied_config_with_other_settings_leaves_the_run_alone(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    run = _first_run(tmp_path, monkeypatch)  # --limit 2
    before = {name: (run / name).read_bytes() for name in os.listdir(run)}
    copy = _copied(run, tmp_path)
    (tmp_path / "ids.txt").write_text("3\n")
    for flags, field in ((["--limit", "1"], "data.limit: 2 vs 1"),
                         (["--ids", str(tmp_path / "ids.txt")], "data.ids: None vs ['3']"),
                         (["--subset", "tiny"], "data.options.subset: None vs 'tiny'")):
        result = CliRunner().invoke(app, ["run", "--config", str(copy), *flags, "--no-progress"])
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {copy} points at the run in {run}"), lines
        assert field in lines[0] and "give --out NEW" in lines[0], lines[0]
    assert {name: (run / name).read_bytes() for name in os.listdir(run)} == before  # nothing rewritten


def test_a_copied_config_with_the_same_settings_resumes(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    run = _first_run(tmp_path, monkeypatch)
    copy = _copied(run, tmp_path)
    again = CliRunner().invoke(app, ["run", "--config", str(copy), "--concurrency", "3", "--no-progress"])
    assert again.exit_code == 0, again.output
    assert "2 items: 2 already answered, 0 answered now" in again.output
    elsewhere = CliRunner().invoke(app, ["run", "--config", str(copy), "--limit", "1", "--out",
                                         str(tmp_path / "runs" / "b"), "--no-progress"])
    assert elsewhere.exit_code == 0 and "1 items: 0 already answered, 1 answered now" in elsewhere.output



def test_the_library_refuses_a_copied_record_with_other_settings(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import spatialbench
    from spatialbench.runs.identity import OtherRunError

    run = _first_run(tmp_path, monkeypatch)
    copy = _copied(run, tmp_path)
    with pytest.raises(OtherRunError, match=r"\(data.limit: 2 vs 1\)"):
        spatialbench.prepare(copy, data={"limit": 1})
    assert spatialbench.prepare(copy).config.data.limit == 2  # the same settings: it resumes
