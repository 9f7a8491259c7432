"""``run --shard K/N`` then ``merge``: the same scores and store content (up to order) as one run."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.runs import STORE_NAME
from spatialbench.runs.shard import Shard, parse_shard
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench, question_tag


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("vsi")
    answers = make_vsibench(root, n_videos=3, per_video=4)
    # wrong answers for every third question, so the scores are not all 100
    wrong = {tag: ("1" if k % 2 == 0 else "A") for k, tag in enumerate(answers) if k % 3 == 0}
    return root, {**answers, **wrong}


def _run(root: Path, url: str, out: Path, *extra: str) -> None:
    args = [
        "run",
        "--benchmark",
        "vsibench",
        "--data",
        str(root),
        "--out",
        str(out),
        "--no-progress",
        "--model",
        f"openai-compatible:{url}#test-vlm",
        "--frames",
        "uniform:4",
        *extra,
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output


def _rows(out: Path) -> set[tuple[str, str, str, str]]:
    with sqlite3.connect(out / STORE_NAME) as conn:
        return set(conn.execute("SELECT request_key, item_id, status, response FROM results").fetchall())


def test_shards_merged_equal_one_run(data, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root, answers = data
    script = ServerScript(answer=answer_script(answers))
    with OpenAIServer(script) as server:
        _run(root, server.url, tmp_path / "whole")
        _run(root, server.url, tmp_path / "s1", "--shard", "1/2")
        _run(root, server.url, tmp_path / "s2", "--shard", "2/2")
    parts = [_rows(tmp_path / "s1"), _rows(tmp_path / "s2")]
    assert parts[0] and parts[1] and not parts[0] & parts[1]  # two non-empty, disjoint slices
    result = CliRunner().invoke(
        app, ["merge", str(tmp_path / "s2"), str(tmp_path / "s1"), "--out", str(tmp_path / "merged")]
    )
    assert result.exit_code == 0, result.output
    assert "merged shards 1/2, 2/2" in result.output
    assert _rows(tmp_path / "merged") == _rows(tmp_path / "whole") == parts[0] | parts[1]
    whole = json.loads((tmp_path / "whole" / "scores.json").read_text())
    merged = json.loads((tmp_path / "merged" / "scores.json").read_text())
    assert merged == whole and whole["overall"] not in (0, 100)
    assert (tmp_path / "merged" / "items.csv").read_text() == (tmp_path / "whole" / "items.csv").read_text()
    config = json.loads((tmp_path / "merged" / "config.json").read_text())
    assert config["config"]["data"]["shard"] is None
    assert [m["shard"] for m in config["merged_from"]] == ["1/2", "2/2"]
    assert len({question_tag(r.text) for r in script.answered()}) == 12


def test_merge_refuses_mismatched_and_incomplete_shards(data, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root, answers = data
    with OpenAIServer(ServerScript(answer=answer_script(answers))) as server:
        _run(root, server.url, tmp_path / "s1", "--shard", "1/2")
        _run(root, server.url, tmp_path / "s2", "--shard", "2/2", "--frames", "uniform:2")
    merge = ["merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m")]
    result = CliRunner().invoke(app, merge)
    assert result.exit_code == 2 and "media.frames: 'uniform:4' vs 'uniform:2'" in result.output
    result = CliRunner().invoke(app, ["merge", str(tmp_path / "s1"), "--out", str(tmp_path / "m")])
    assert result.exit_code == 2 and "missing [2]" in result.output
    assert not (tmp_path / "m").exists()


def test_merge_refuses_chance_baselines(data, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root, _ = data
    for k in (1, 2):
        args = [
            "run",
            "--benchmark",
            "vsibench",
            "--data",
            str(root),
            "--out",
            str(tmp_path / f"s{k}"),
            "--no-progress",
            "--model",
            "chance-frequency",
            "--shard",
            f"{k}/2",
        ]
        assert CliRunner().invoke(app, args).exit_code == 0
    merge = ["merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m")]
    result = CliRunner().invoke(app, merge)
    assert result.exit_code == 2 and "a chance baseline is scored whole" in result.output


def test_shard_slices_partition_ids() -> None:
    ids = [str(i) for i in range(1000)]
    slices = [{i for i in ids if Shard(k, 4).holds(i)} for k in range(1, 5)]
    assert sum(len(s) for s in slices) == 1000 and set().union(*slices) == set(ids)
    assert all(200 <= len(s) <= 300 for s in slices)  # sha1 spreads them evenly
    assert str(parse_shard(" 3/4 ")) == "3/4"
    for bad in ("0/2", "3/2", "1", "a/b", "1/0"):
        with pytest.raises(ValueError, match="K/N"):
            parse_shard(bad)


def test_bad_shard_option_is_one_line(tmp_path: Path) -> None:
    args = [
        "run",
        "--benchmark",
        "vsibench",
        "--data",
        str(tmp_path),
        "--model",
        "chance-random",
        "--out",
        str(tmp_path / "o"),
        "--shard",
        "3/2",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "Invalid value for --shard" in result.output and "K/N" in result.output


def test_a_programmatic_run_with_a_shard_runs_only_its_slice(data, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from spatialbench.api import run
    from spatialbench.runs import RunConfig

    root, answers = data
    config = RunConfig.model_validate({
        "data": {"benchmark": "vsibench", "path": str(root), "shard": "1/2"},
        "model": {"name": "openai-compatible:http://127.0.0.1:1/v1#test-vlm"},
        "media": {"frames": "uniform:4"},
        "out": str(tmp_path / "s1"),
    })
    shard = parse_shard("1/2")
    expected = sorted(i for i in (str(k) for k in range(len(answers))) if shard.holds(i))
    with OpenAIServer(ServerScript(answer=answer_script(answers))) as server:
        config = config.updated("model", name=f"openai-compatible:{server.url}#test-vlm")
        summary = run(config, progress=False)
    assert summary.selected == len(expected) < len(answers)
    assert sorted(item for _, item, _, _ in _rows(tmp_path / "s1")) == expected


def _set_data_path(folder: Path, path: str) -> None:
    """Record ``path`` as the shard's data.path (as runs made before data paths were absolute did)."""
    record = json.loads((folder / "config.json").read_text())
    record["config"]["data"]["path"] = path
    (folder / "config.json").write_text(json.dumps(record))


def test_merge_from_another_folder_writes_nothing_and_a_retry_works(  # type: ignore[no-untyped-def]
    data, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, answers = data
    with OpenAIServer(ServerScript(answer=answer_script(answers))) as server:
        _run(root, server.url, tmp_path / "s1", "--shard", "1/2")
        _run(root, server.url, tmp_path / "s2", "--shard", "2/2")
    for shard in ("s1", "s2"):  # recorded relative to the folder the shards ran in (root's parent)
        _set_data_path(tmp_path / shard, root.name)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    merge = ["merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m")]
    result = CliRunner().invoke(app, merge)
    assert result.exit_code == 2, result.output
    assert "annotation path not found" in result.output and root.name in result.output
    assert list((tmp_path / "m").iterdir()) == []  # no store, no config.json: a retry is not refused
    _set_data_path(tmp_path / "s2", str(root))  # relative and absolute name the same folder
    monkeypatch.chdir(root.parent)
    result = CliRunner().invoke(app, merge)
    assert result.exit_code == 0, result.output
    config = json.loads((tmp_path / "m" / "config.json").read_text())
    assert config["config"]["data"]["path"] == str(root.resolve())
    names = sorted(p.name for p in (tmp_path / "m").iterdir())
    assert names == ["config.json", "items.csv", STORE_NAME, "scores.json", "scores.md"]



def test_merge_with_unanswered_items_warns_and_exits_1(data, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root, answers = data
    with OpenAIServer(ServerScript(answer=answer_script(answers))) as server:
        _run(root, server.url, tmp_path / "s1", "--shard", "1/2")
        _run(root, server.url, tmp_path / "s2", "--shard", "2/2")
    with sqlite3.connect(tmp_path / "s2" / STORE_NAME) as conn:  # two items of shard 2 never answered
        lost = [r[0] for r in conn.execute("SELECT item_id FROM results ORDER BY item_id LIMIT 2")]
        conn.execute("DELETE FROM results WHERE item_id IN (?, ?)", lost)
    merge = ["merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m")]
    result = CliRunner().invoke(app, merge)
    assert result.exit_code == 1, result.output
    assert "warning: 2 of 12 items have no answer" in result.output
    assert (tmp_path / "m" / "scores.json").is_file()  # the merge itself is kept


@pytest.mark.parametrize("text", ["1 /4", "1/ 4", "+1/4", "1_0/20", "\u0661/4", "1/4/2"])
def test_shard_forms_with_spaces_signs_or_other_digits_are_refused(text: str) -> None:
    # newcomer finding: --shard "1 /4" was accepted (int() strips spaces inside each half)
    with pytest.raises(ValueError, match="K/N"):
        parse_shard(text)
