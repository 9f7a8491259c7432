"""The report of MMSI-Video-Bench and ReMindView-Bench runs: their own tables (Table 2/3, Table 1) as the
leaderboard and breakdowns, with the random-guess row; on the test fixtures (loopback server answers "B")."""

from __future__ import annotations

import re
from pathlib import Path

import html5lib
import pytest

from benchmarks.mmsi_remindview_fixtures import build_mmsi, build_remindview
from spatialbench.api import run
from spatialbench.report import build_report
from spatialbench.runs import RunConfig
from support.openai_server import OpenAIServer, ServerScript

pytestmark = pytest.mark.slow  # two benchmark runs each (about 15 s)


def runs_of(benchmark: str, data: Path, root: Path) -> list[Path]:
    with OpenAIServer(ServerScript(answer=lambda text: "B")) as server:
        run(RunConfig.model_validate({"data": {"benchmark": benchmark, "path": str(data)},
                                      "model": {"name": f"openai-compatible:{server.url}#m"},
                                      "out": str(root / "vision")}), progress=False)
    run(RunConfig.model_validate({"data": {"benchmark": benchmark, "path": str(data)},
                                  "model": {"name": "chance-random"}, "out": str(root / "chance")}),
        progress=False)
    return [root / "vision", root / "chance"]


def test_mmsi_video_report_has_table_3_and_difficulty_with_random_guess(tmp_path: Path) -> None:
    runs = runs_of("mmsi-video", build_mmsi(tmp_path / "data"), tmp_path)
    result = build_report(runs, tmp_path / "report")
    md = (tmp_path / "report" / "tables" / "breakdowns.md").read_text()
    # the 14-question fixture's random-guess mean: (9/4 + 3/5 + 2/6) / 14 = 22.7
    # (docs/benchmarks/mmsi-video.md)
    table3 = md.split("main categories (Table 3")[1].split("\n\n")[1]
    # the chance-random run is the random-guess baseline: printed once (Table 2 "Random Guessing")
    assert "| Chance Level (Random) | 22.7 | 22.8 | 23.3 | 23.3 | 20.8 |" in table3
    assert "random guess" not in md
    # each run's row is followed by its intervals; 14 questions: every cell is marked under 30 items
    label = "| Chance Level (Random) 95 % CI |"
    ci_row = next(line for line in table3.splitlines() if line.startswith(label))
    assert ci_row.count("[") == ci_row.count("]*") >= 1
    assert "Difficulty levels" in md
    tree = html5lib.parse((tmp_path / "report" / "index.html").read_text(), namespaceHTMLElements=False)
    table = next(t for t in tree.iter("table") if t.get("id") == "main-table")
    top, second = table.find("thead").findall("tr")
    # Table 2's own header groups, spanning their subtypes (not VSI-Bench's answer kinds)
    groups = [(th.text, int(th.get("colspan"))) for th in top.findall("th") if th.get("colspan")]
    assert groups == [("Spatial Construction", 6), ("Motion Understanding", 3), ("Cross-Video", 2),
                      ("Planning", 1), ("Prediction", 1)]
    assert [th.text for th in second.findall("th")] == [
        "Attr.", "Inst.-Inst.", "Inst.-Scen.", "Scen.-Scen.", "Cam.-Inst.", "Cam.-Scen.", "Cam.", "Inst.",
        "Inter.", "MU.", "MV.", "Plan.", "Pred."]
    assert "Multiple-Choice Answer" not in (tmp_path / "report" / "index.html").read_text()
    # the Table 2 breakdown carries the same groups (Avg. last, under none); Table 3 has one header row
    captions = {t.find("caption").text: t for t in tree.iter("table") if t.find("caption") is not None}
    table2 = next(t for c, t in captions.items() if "subtypes (Table 2" in c)
    row = table2.find("thead").findall("tr")[0]
    assert [(th.text, th.get("colspan")) for th in row.findall("th")[1:]] == [
        ("Spatial Construction", "6"), ("Motion Understanding", "3"), ("Cross-Video", "2"), ("Planning", "1"),
        ("Prediction", "1"), (None, "1")]
    table3 = next(t for c, t in captions.items() if "main categories (Table 3" in c)
    assert len(table3.find("thead").findall("tr")) == 1
    tex = (tmp_path / "report" / "tables" / "breakdowns.tex").read_text()
    assert r"\multicolumn{6}{c}{Spatial Construction} & \multicolumn{3}{c}{Motion Understanding}" in tex
    stems = {Path(f.png).stem.split("-")[1] for f in result.figures if "breakdown" in f.png}
    assert stems == {"1", "2", "3"}
    assert result.warnings == []  # contact sheets of the frame lists sent were drawn


def test_remindview_report_has_table_1_rows(tmp_path: Path) -> None:
    runs = runs_of("remindview", build_remindview(tmp_path / "data"), tmp_path)
    build_report(runs, tmp_path / "report")
    md = (tmp_path / "report" / "tables" / "breakdowns.md").read_text()
    assert "ReMindView-Bench overall (Table 1)" in md and "by distance level" in md
    overall = md.split("overall (Table 1)")[1].split("\n\n")[1].splitlines()
    # one random baseline row (Table 1 "Random Choice"): the chance-random run's, not a second computed one
    assert [line.split(" | ")[0] for line in overall[2:]] == [
        "| vision", "| vision 95 % CI", "| Chance Level (Random)", "| Chance Level (Random) 95 % CI", "| n"]
    board = (tmp_path / "report" / "tables" / "leaderboard.md").read_text()
    assert "| Chance Level (Random) | - |" in board and "| vision | 1 |" in board
    # the frames sent are labelled as the questions name them; an item without a scene has no scene row
    page = next((tmp_path / "report" / "items").glob("object_centric_qa_0-*.html")).read_text()
    assert re.findall(r"<figcaption>([^<]*)</figcaption>", page) == ["frame0", "frame1", "frame2", "frame3"]
    assert "None" not in page.split('<div class="runs">')[0] and "<td>scene</td>" not in page


def test_data_of_another_benchmark_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    # a newcomer's `report RUN --data <other benchmark>`: an IndexError in the radar, or a report of 0 items
    from typer.testing import CliRunner

    from spatialbench.cli.main import app
    from support.vsi_data import make_vsibench

    chance = tmp_path / "chance"
    make_vsibench(tmp_path / "vsi", n_videos=1, per_video=2)
    run(RunConfig.model_validate({"data": {"benchmark": "vsibench", "path": str(tmp_path / "vsi")},
                                  "model": {"name": "chance-random"}, "out": str(chance)}), progress=False)
    other = build_remindview(tmp_path / "rmv")  # a ReMindView table lacks VSI-Bench's columns
    args = ["report", str(chance), "--data", str(other), "--out", str(tmp_path / "rep")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    table = other / "view_centric_qa.parquet"
    assert result.output.strip() == (
        f"error: {chance}: benchmark data of the run ({other}) cannot be read: {table}: no column 'dataset' "
        "(columns: folder_path, query_type, query, ground_truth, choices, cross_frame, object_num); another "
        "benchmark's file? (its columns are those of --benchmark remindview)")
    assert not (tmp_path / "rep").exists()
