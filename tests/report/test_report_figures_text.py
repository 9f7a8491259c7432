"""Every figure a report draws is readable: no two texts over each other, none under 9 pt, every value
printed with one decimal, no chance mark through a value (issue 22 item 3).

Measured on matplotlib's own text boxes (tests/support/text_boxes.py) as each figure is saved: the demo
benchmark's vision, blind and chance runs (task bars, radar, Fig. 13 gaps), and the MMSI-Video-Bench and
ReMindView-Bench fixtures (their task bars and breakdowns).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from matplotlib.text import Annotation

from benchmarks.mmsi_remindview_fixtures import build_mmsi, build_remindview
from report.test_report_benchmarks import runs_of
from spatialbench.benchmarks.mmsi_video.breakdown import SUBTYPES
from spatialbench.report import build_report, figures
from support.text_boxes import Drawn, capture, line_boxes, overlaps, struck

ONE_DECIMAL = re.compile(r"^-?\d+\.\d$")


def _check(drawn: dict[str, Drawn], chance: list[str]) -> None:
    assert drawn
    for stem, chart in drawn.items():
        assert overlaps(chart.labels) == [], stem
        assert min(t.points for t in chart.labels) >= 9, stem
        values = [t.get_text() for t in chart.figure.findobj(Annotation)]
        assert all(ONE_DECIMAL.match(v) for v in values), (stem, values)
        printed = [t for t in chart.labels if t.text in values]
        for name in chance:
            assert struck(printed, line_boxes(chart.figure, name)) == [], (stem, name)


def test_demo_report_figures_have_no_overlapping_text(demo_runs, tmp_path: Path, monkeypatch) -> None:
    runs = [demo_runs[k] for k in ("vision", "blind", "random", "frequency")]
    with capture(monkeypatch, figures) as drawn:
        build_report(runs, tmp_path / "report")
    assert {"tasks", "radar", "gap-blind"} <= set(drawn)
    tasks = drawn["tasks"].figure.axes[0]
    # "Appr. Order" wraps; its n stays on a line of its own
    assert all(re.fullmatch(r"n=\d+", t.get_text().split("\n")[-1]) for t in tasks.get_xticklabels())
    assert tasks.get_xticklabels()[7].get_text().startswith("Appr.\nOrder\nn=")
    _check(drawn, ["Chance Level (Random)", "Chance Level (Frequency)"])


@pytest.mark.slow  # two benchmark runs each (about 15 s)
@pytest.mark.parametrize("benchmark", ["mmsi-video", "remindview"])
def test_mmsi_and_remindview_report_figures_have_no_overlapping_text(benchmark, tmp_path: Path,
                                                                     monkeypatch) -> None:
    build = build_mmsi if benchmark == "mmsi-video" else build_remindview
    runs = runs_of(benchmark, build(tmp_path / "data"), tmp_path)
    with capture(monkeypatch, figures) as drawn:
        build_report(runs, tmp_path / "report")
    if benchmark == "mmsi-video":  # the 13 subtypes of the leaderboard, one band each, top down
        names = [t.get_text().split("\n")[0] for t in drawn["tasks"].figure.axes[0].get_yticklabels()]
        assert names == [label for _, label in SUBTYPES]
    _check(drawn, ["Chance Level (Random)"])
