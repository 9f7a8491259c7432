"""ReVSI runs of two frame budgets, served and reported together: each run keeps its own budget's truth
and video (``serve`` and ``report`` showed the default ``all_frame`` truth 4 and its video for a 16-frame
run, and the report warned it had no thumbnails for it); each settings line names the budget."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from benchmarks.test_revsi import CASES, _question, write_release
from spatialbench.cli.main import app
from spatialbench.web import ServeConfig, create_app
from support.scripted_runs import scripted_run

TOKEN = "t0k3n-for-revsi-budgets"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``data`` and ``runs/revsi-16``, ``runs/revsi-all`` (loopback runs of each budget)."""
    root = tmp_path_factory.mktemp("revsi-budgets")
    write_release(root / "data")
    responses = {_question(k): c[5] for k, c in enumerate(CASES)}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPENAI_API_KEY", "sk-test")
        for budget in ("16", "all"):
            scripted_run("revsi", root / "data", root / "runs" / f"revsi-{budget}", responses,
                         "--option", f"budget={budget}")
    return root


def test_serve_shows_a_run_its_own_budget(runs: Path, tmp_path: Path) -> None:
    app16 = create_app(ServeConfig(data=runs / "data", workdir=tmp_path / "w", token=TOKEN, benchmark="revsi",
                                   runs=(runs / "runs" / "revsi-16",)))
    page = TestClient(app16, headers={"X-Spatialbench-Token": TOKEN}).get("/item/0").text
    assert '<b id="truth">3</b>' in page  # 16-frame truth (all_frame says 4)
    assert "16_frame/scene0.mp4" in page and "all_frame" not in page
    assert "m · budget 16 · frames uniform:128" in page
    both = create_app(ServeConfig(data=runs / "data", workdir=tmp_path / "w2", token=TOKEN, benchmark="revsi",
                                  runs=(runs / "runs",)))
    page = TestClient(both, headers={"X-Spatialbench-Token": TOKEN}).get("/item/0").text
    assert '<b id="truth">4</b>' in page  # runs disagree: the loader's default budget (all) on top ...
    assert 'ground truth of this run: <b class="run-truth">3</b>' in page  # ... and revsi-16's own below


def test_report_of_two_budgets_keeps_each_runs_truth_and_thumbnails(runs: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    folders = [str(runs / "runs" / f"revsi-{budget}") for budget in ("all", "16")]
    result = CliRunner().invoke(app, ["report", *folders, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "no thumbnails" not in result.output
    page = next((out / "items").glob("0*.html")).read_text()
    assert re.search(r"<td>ground truth</td><td class=\"text\"><b>4</b>", page)
    assert "<td>ground truth (this run)</td><td class=\"text\"><b>3</b>" in page
    assert "budget 16 ·" in page and "budget all ·" in page
