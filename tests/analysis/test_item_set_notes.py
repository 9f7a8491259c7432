"""``compare`` and ``report`` say when their rows are not over the same items (issue 22, newcomer defect 5).

``report runs/freq runs/lmms-eval`` ranked a 66-item import of one file beside a 90-item run of another, and
``compare runs/freq serve-out/human-alice`` printed the human's 45.0 with no "in progress: 2 of 4" (which
``score --run`` warns). Here: 6 items, a chance-frequency run of them, a CSV import of 4 items of a copy of
the data, and a human run that answered 1 of its 3 items.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.api.importing import import_run
from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from spatialbench.report.build import build_report
from spatialbench.web import human
from support.vsi_data import make_vsibench


def _invoke(*args: object) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("item-sets")
    make_vsibench(root / "data", n_videos=2, per_video=3, n_frames=12)
    shutil.copytree(root / "data", root / "copy")
    _invoke("run", "--benchmark", "vsibench", "--data", root / "data", "--model", "chance-frequency",
            "--out", root / "freq", "--no-progress")
    answers = root / "answers.csv"
    answers.write_text("id,response\n0,1\n1,A\n2,2\n3,B\n")
    import_run(answers, "vsibench", root / "copy", root / "imported")
    spec = get_benchmark("vsibench")
    items = list(spec.load_items(root / "data"))
    config = human.start(root / "serve-out", "alice", spec, root / "data", ["0", "1", "2"])
    human.record(config, spec, items, next(i for i in items if i.id == "1"), "A", 3.0)
    return root


def test_compare_says_a_human_run_is_in_progress(runs: Path) -> None:
    out = _invoke("compare", runs / "freq", runs / "serve-out" / "human-alice", "--out", runs / "c1")
    assert "human-alice: in progress: 1 of 3 items answered; only the answered ones are scored" in out
    assert "items differ" not in out  # a person answers a sample: not another item set


def test_compare_and_report_say_the_items_differ(runs: Path, tmp_path: Path) -> None:
    note = ("items differ: freq 6 item(s) of item-sets0/data, imported 4 item(s) of item-sets0/copy; these "
            "scores are not over the same questions")
    assert note in _invoke("compare", runs / "freq", runs / "imported", "--out", tmp_path / "c2")
    result = build_report([runs / "freq", runs / "imported"], tmp_path / "report", sheets=0)
    assert note in result.warnings
    assert f'<p class="note items-differ">{note}</p>' in result.index.read_text()
    same = build_report([runs / "freq", runs / "serve-out" / "human-alice"], tmp_path / "r2", sheets=0)
    assert not [w for w in same.warnings if "items differ" in w]
