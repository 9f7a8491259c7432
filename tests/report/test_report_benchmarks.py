"""The report of MMSI-Video-Bench and ReMindView-Bench runs: their own tables (Table 2/3, Table 1) as the
leaderboard and breakdowns, with the random-guess row; on the test fixtures (loopback server answers "B")."""

from __future__ import annotations

import re
from pathlib import Path

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
    assert "| Chance Level (Random) | 22.7 |" in table3 and "| random guess | 22.7 |" in table3
    assert "Difficulty levels" in md
    stems = {Path(f.png).stem.split("-")[1] for f in result.figures if "breakdown" in f.png}
    assert stems == {"1", "2", "3"}
    assert result.warnings == []  # contact sheets of the frame lists sent were drawn


def test_remindview_report_has_table_1_rows(tmp_path: Path) -> None:
    runs = runs_of("remindview", build_remindview(tmp_path / "data"), tmp_path)
    build_report(runs, tmp_path / "report")
    md = (tmp_path / "report" / "tables" / "breakdowns.md").read_text()
    assert "ReMindView-Bench overall (Table 1)" in md and "by distance level" in md
    board = (tmp_path / "report" / "tables" / "leaderboard.md").read_text()
    assert "| Chance Level (Random) | - |" in board and "| vision | 1 |" in board
    # the frames sent are labelled as the questions name them; an item without a scene has no scene row
    page = next((tmp_path / "report" / "items").glob("object_centric_qa_0-*.html")).read_text()
    assert re.findall(r"<figcaption>([^<]*)</figcaption>", page) == ["frame0", "frame1", "frame2", "frame3"]
    assert "None" not in page.split('<div class="runs">')[0] and "<td>scene</td>" not in page
