"""The leaderboard keeps protocols apart and shows n and intervals (issue 21, protocol item 8)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks import test_blink
from benchmarks.mmsi_remindview_fixtures import build_mmsi
from spatialbench.api import run
from spatialbench.benchmarks import get_benchmark
from spatialbench.report import build_report
from spatialbench.runs import RunConfig
from support.openai_server import OpenAIServer, ServerScript

pytestmark = pytest.mark.slow  # three benchmark runs (about 15 s)


def _run(data: Path, out: Path, model: str, setting: str) -> None:
    run(RunConfig.model_validate({"data": {"benchmark": "mmsi-video", "path": str(data),
                                           "options": {"setting": setting}},
                                  "model": {"name": model}, "out": str(out)}), progress=False)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tracks")
    data = build_mmsi(root / "data")
    with OpenAIServer(ServerScript(answer=lambda text: "B")) as server:
        model = f"openai-compatible:{server.url}#m"
        _run(data, root / "uniform", model, "uniform-50")
        _run(data, root / "coverage", model, "sufficient-coverage")
    _run(data, root / "chance", "chance-random", "uniform-50")
    build_report([root / "uniform", root / "coverage", root / "chance"], root / "report")
    return root / "report"


def test_mmsi_tracks_are_ranked_in_their_own_sections(report: Path) -> None:
    md = (report / "tables" / "leaderboard.md").read_text()
    uniform, coverage = md.index("Models · Uniform-50"), md.index("Models · Sufficient-Coverage")
    assert uniform < md.index("| uniform | 1 |") < coverage < md.index("| coverage | 1 |")  # each ranked 1st


def test_leaderboard_cells_show_n_and_interval(report: Path) -> None:
    html = (report / "index.html").read_text()
    assert re.search(r'<small class="ci"[^>]*>\[\d+\.\d, \d+\.\d\] n=14\*</small>', html)
    intervals = (report / "tables" / "leaderboard_intervals.md").read_text()
    assert "| uniform | [" in intervals and "n=14*" in intervals


def test_a_baseline_without_avg_shows_no_avg_interval(tmp_path: Path) -> None:
    from support.vsi_data import make_vsibench

    # chance-random does not apply to numerical tasks: its Avg. is "-" (Fig. 6), and so is its interval
    make_vsibench(tmp_path / "data", n_videos=2, per_video=4)
    run(RunConfig.model_validate({"data": {"benchmark": "vsibench", "path": str(tmp_path / "data")},
                                  "model": {"name": "chance-random"}, "out": str(tmp_path / "chance")}),
        progress=False)
    build_report([tmp_path / "chance"], tmp_path / "report")
    rows = (tmp_path / "report" / "tables" / "leaderboard_intervals.md").read_text().splitlines()
    # the fixture's 8 questions are all relative distance: the 7 empty columns are left out (named above
    # the leaderboard); Avg. is "-", the relative-distance cell keeps its interval and n
    assert rows[2:] == ["| | Avg. | Rel. Dist. |", "|---|---:|---:|",
                        "| Chance Level (Random) | - | [25.0, 25.0] n=4* |"]


def test_the_best_run_of_a_column_is_marked_within_its_track() -> None:
    from spatialbench.report.tables import Leaderboard

    sections = (("Baseline", (("chance", "-", (90.0, 90.0)),)),
                ("Models · Uniform-50", (("a", 1, (50.0, 10.0)), ("b", 2, (40.0, 30.0)))),
                ("Models · Sufficient-Coverage", (("c", 1, (80.0, 5.0)), ("d", 2, (70.0, 6.0)))))  # fmt: skip
    board = Leaderboard(("Avg.", "SC."), ("sc",), ("",), sections, {})
    # c's 80.0 tops the Avg. column over all runs, yet a is still the best of Uniform-50 (ranked apart)
    assert board.marks() == {"a": ("best", "second"), "b": ("second", "best"),
                             "c": ("best", "second"), "d": ("second", "best")}


FOOTNOTE = "Runs of another protocol (MMSI-Video-Bench Uniform-50 / Sufficient-Coverage)"


def test_the_protocol_footnote_comes_from_the_spec(report: Path) -> None:
    assert FOOTNOTE in (report / "index.html").read_text()  # MMSI-Video-Bench declares its two settings


def test_a_benchmark_without_protocols_has_no_protocol_footnote(tmp_path: Path) -> None:
    # issue 24: every report's footnote named MMSI-Video-Bench's protocols (here a BLINK chance run)
    assert get_benchmark("blink").protocols == () and get_benchmark("vsibench").protocols == ()
    data = test_blink.write_release(tmp_path / "blink")
    run(RunConfig.model_validate({"data": {"benchmark": "blink", "path": str(data)},
                                  "model": {"name": "chance-random"}, "out": str(tmp_path / "run")}),
        progress=False)
    build_report([tmp_path / "run"], tmp_path / "report")
    html = (tmp_path / "report" / "index.html").read_text()
    assert "another protocol" not in html and "MMSI-Video" not in html
    assert '"[other items: n]" after a rank' in html  # the rest of the footnote stays


def test_tasks_no_run_answered_are_named_not_drawn(tmp_path: Path) -> None:
    # issue 24 leftover: BLINK's 14 subtasks as columns made a 1200 px leaderboard cut after Object
    # Localization and a per-task figure of 11 empty rows for a fixture with 3 subtasks
    data = test_blink.write_release(tmp_path / "blink")
    run(RunConfig.model_validate({"data": {"benchmark": "blink", "path": str(data)},
                                  "model": {"name": "chance-random"}, "out": str(tmp_path / "run")}),
        progress=False)
    build_report([tmp_path / "run"], tmp_path / "report")
    md = (tmp_path / "report" / "tables" / "leaderboard.md").read_text().splitlines()
    assert md[0] == ("**No run has items for 11 of the 14 tasks (not shown; Avg. is over the tasks shown): "
                     "Visual Similarity, Counting, Art Style, Functional Correspondence, "
                     "Semantic Correspondence, Spatial Relation, Object Localization, Visual Correspondence, "
                     "Relative Reflectance, Forensic Detection, IQ Test**")
    assert md[2].split("|")[1:-1] == [" ", " Rank ", " Avg. ", " Relative Depth ", " Jigsaw ",
                                      " Multi-view Reasoning "]
    html = (tmp_path / "report" / "index.html").read_text()
    assert "No run has items for 11 of the 14 tasks" in html and ">Counting<" not in html
