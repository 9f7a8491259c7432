"""A run made on other questions than ``--data`` is not scored against it (issue 22, newcomer defect 1).

An lmms-eval log imported on one benchmark file shares integer ids with any other VSI-Bench file; ``serve``
scored it by id against ``--data`` (lmms-eval read 61.1 on /scores while compare/report gave 63.5). Here
the served data and the import's annotations share every id, and the questions of ids 1, 3, 5 differ.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spatialbench.api.importing import import_run
from spatialbench.web import ServeConfig, create_app
from support.serve_stderr import serve_start_text
from support.vsi_data import make_vsibench

TOKEN = "t0k3n-for-other-questions"


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``served`` (6 items); ``other``: the same with 3 questions reworded; ``runs/same``, ``runs/other``."""
    root = tmp_path_factory.mktemp("other-questions")
    make_vsibench(root / "served", n_videos=2, per_video=3, n_frames=12)
    shutil.copytree(root / "served", root / "other")
    rows = [json.loads(line) for line in (root / "other" / "test.jsonl").read_text().splitlines()]
    for row in rows:
        if row["id"] % 2:
            row["question"] = row["question"].replace("sofa", "window")
    (root / "other" / "test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    answers = root / "answers.csv"
    answers.write_text("id,response\n" + "".join(f"{k},A\n" for k in range(6)))
    import_run(answers, "vsibench", root / "served", root / "runs" / "same")
    import_run(answers, "vsibench", root / "other" / "test.jsonl", root / "runs" / "other")
    return root


def test_a_run_of_other_questions_is_not_scored_against_the_data(folders: Path, tmp_path: Path) -> None:
    app = create_app(ServeConfig(data=folders / "served", workdir=tmp_path / "work", token=TOKEN,
                                 runs=(folders / "runs",)))
    state = app.state.serve
    assert [r.name for r in state.runs()] == ["same"]
    [(run, why)] = state.mismatched_runs()
    assert run.name == "other"
    assert "Which is closest to the window?'" in why and "Which is closest to the sofa?'" in why
    assert "(3 of 6 questions differ)" in why
    client = TestClient(app, headers={"X-Spatialbench-Token": TOKEN})
    page = client.get("/scores").text
    assert ">same<" in page and ">other<" not in page
    assert "not shown: other (made on other questions than these" in page


def test_serve_names_the_runs_of_other_questions(folders: Path, tmp_path: Path) -> None:
    text = serve_start_text("--data", str(folders / "served"),
               "--runs", str(folders / "runs"), "--workdir", str(tmp_path / "w"), "--port", "0")
    assert (f"notice: 1 run(s) made on other questions than --data not shown (their scores would be by id "
            f"only): {folders / 'runs' / 'other'} ({folders / 'other' / 'test.jsonl'}: item 1: the run's "
            "questions ask '[q1] Which is closest to the window?', --data's '[q1] Which is closest to the "
            "sofa?' (3 of 6 questions differ))") in text, text
