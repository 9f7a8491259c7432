"""``spatialbench run --config FILE``: YAML or TOML sections, validated by RunConfig, flags override."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.runs.config_file import merged, read_config_file
from support.vsi_data import make_vsibench

YAML = """
out: {out}
data:
  benchmark: vsibench
  path: {data}
  limit: 2
  options: {{subset: full}}
media: {{frames: "uniform:2"}}
model: {{name: chance-frequency, seed: 3}}
scoring: {{mra: paper}}
"""
TOML = """
out = "{out}"
[data]
benchmark = "vsibench"
path = "{data}"
limit = 2
[model]
name = "chance-frequency"
"""


@pytest.mark.parametrize(("suffix", "template"), [(".yaml", YAML), (".toml", TOML)])
def test_run_file_sections_and_flags_that_override_them(tmp_path: Path, suffix: str, template: str) -> None:
    data = tmp_path / "data"
    make_vsibench(data, n_videos=1, per_video=4)
    file = tmp_path / f"run{suffix}"
    file.write_text(template.format(out=tmp_path / "run", data=data))
    result = CliRunner().invoke(app, ["run", "--config", str(file), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "2 items: 0 already answered, 2 answered now" in result.output
    again = CliRunner().invoke(app, ["run", "--config", str(file), "--limit", "3", "--no-progress"])
    assert "3 items: 2 already answered, 1 answered now" in again.output, again.output
    config = json.loads((tmp_path / "run" / "config.json").read_text())["config"]
    assert config["data"]["limit"] == 3 and config["model"]["concurrency"] == 8  # the ApiSettings default


def test_unknown_keys_and_unreadable_files_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("data: {benchmark: vsibench, path: x, frames: all}\nmodel: {name: chance-random}\nout: o")
    result = CliRunner().invoke(app, ["run", "--config", str(bad)])
    assert result.exit_code == 2, result.output
    assert "Invalid value for data.frames: Extra inputs are not permitted" in result.output
    broken = tmp_path / "broken.toml"
    broken.write_text("data = [")
    result = CliRunner().invoke(app, ["run", "--config", str(broken)])
    assert result.exit_code == 2 and f"Invalid value for --config {broken}" in result.output
    with pytest.raises(ValueError, match="expected a .yaml / .yml / .toml / .json file"):
        read_config_file(tmp_path / "run.ini")


def test_merged_lays_flags_over_the_file() -> None:
    base = {"data": {"benchmark": "vsibench", "options": {"subset": "full"}}, "out": "a"}
    flags = {"data": {"options": {"pruned_ids": "p.txt"}}, "out": "b"}
    assert merged(base, flags) == {
        "data": {"benchmark": "vsibench", "options": {"subset": "full", "pruned_ids": "p.txt"}},
        "out": "b",
    }


@pytest.mark.parametrize("text", [
    # 9 levels of 9 aliases: 9**9 (387 million) values once expanded, from a file of ~330 bytes
    "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{n}: &{n} [{','.join(['*' + p] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True))
    + "data: {path: x, ids: *i}\n",
    "model: &m {name: x, extra: *m}\n",  # an alias inside itself
])
def test_a_yaml_alias_bomb_is_one_line_in_bounded_memory(tmp_path: Path, text: str) -> None:
    """Issue 26 item 8: the expansion (when unknown keys were reported with their values) ate all memory."""
    config = tmp_path / "bomb.yaml"
    config.write_text(text)
    result = CliRunner().invoke(app, ["run", "--config", str(config), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        f"Error: Invalid value for --config {config}: YAML aliases expand to over 100,000 values "
        "(an alias bomb or an alias inside itself); write the values out"]
    assert not (tmp_path / "out").exists()
