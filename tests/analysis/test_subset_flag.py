"""``--subset`` on ``baseline`` and ``run`` (VSI-Bench (tiny), issue 11 s.6): ``run --subset X`` sets
``data.options.subset``, as ``-o subset=X`` does."""

import json
from pathlib import Path

from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.vsi_data import make_vsibench

MISSING = "tiny_ids.txt:2: field 'id': VSI-Bench (tiny) id 9 is not in the annotations; skipped"


def _invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def test_run_and_baseline_take_subset_tiny(tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_vsibench(data, n_videos=2, per_video=4)  # ids 0..7: only 3 (rel. distance) is in the tiny list
    run = ["run", "--benchmark", "vsibench", "--data", data, "--model", "chance-random", "--no-progress"]
    code, output = _invoke(*run, "--subset", "tiny", "--out", tmp_path / "run")
    assert code == 0, output
    assert "1 items: 0 already answered, 1 answered now" in output and MISSING in output
    config = json.loads((tmp_path / "run" / "config.json").read_text())["config"]
    assert config["data"]["options"] == {"subset": "tiny"}
    code, output = _invoke("baseline", "-a", data / "test.jsonl", "-m", "chance-random", "--subset", "tiny")
    assert code == 0 and MISSING in output, output
    assert "items: 1 ·" in output and "| all | 25.0 | - | - | - | - | 25.0 | - | - | - |" in output  # 1 in 4
    code, output = _invoke(*run, "--subset", "tiny", "-o", "subset=full", "--out", tmp_path / "other")
    assert (code, output.strip()) == (
        2, "Error: Invalid value for --subset tiny and -o subset=full disagree; give one of them")
    assert not (tmp_path / "other").exists()
