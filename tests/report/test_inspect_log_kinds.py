"""An Inspect log says what a human run in progress and an imported run are (issue 22, newcomer defect 7).

A human run that answered 1 of its 3 items exported ``status: success`` (inspect_ai's EvalLog status is one
of started, success, cancelled, error: it is ``started``); an imported run exported solver ``direct``, and
its item page said "strategy direct" beside a settings line that said the strategy was not recorded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spatialbench.api.importing import import_run
from spatialbench.benchmarks import get_benchmark
from spatialbench.report.inspect_log import inspect_log
from spatialbench.runs.folder import open_run
from spatialbench.runs.transcript import transcript
from spatialbench.web import human
from support.vsi_data import make_vsibench


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("inspect-kinds")
    make_vsibench(root / "data", n_videos=1, per_video=3, n_frames=12)
    spec = get_benchmark("vsibench")
    items = list(spec.load_items(root / "data"))
    config = human.start(root / "serve-out", "alice", spec, root / "data", ["0", "1", "2"])
    human.record(config, spec, items, next(i for i in items if i.id == "1"), "A", 3.0)
    answers = root / "answers.csv"
    answers.write_text("id,response\n0,1\n1,A\n")
    import_run(answers, "vsibench", root / "data", root / "imported")
    return root


def test_a_human_run_in_progress_is_started(runs: Path) -> None:
    from inspect_ai.log import EvalLog

    log = inspect_log(open_run(runs / "serve-out" / "human-alice"))
    assert log["status"] == "started"
    assert EvalLog.model_validate(log).status == "started"


def test_an_imported_run_names_its_tool_and_no_strategy(runs: Path) -> None:
    run = open_run(runs / "imported")
    log = inspect_log(run)
    assert log["eval"]["solver"] == "csv (imported)" and log["eval"]["solver_args"] == {}
    assert log["plan"]["steps"] == [{"solver": "csv (imported)", "params": {}}]
    assert log["status"] == "success"
    found = transcript(run, "0")
    assert found is not None and found.strategy == "none (answers imported from csv)"
