"""The report's leaderboard in Chromium: a run's name is read on one line however many columns the
benchmark's own groups bring (MMSI-Video-Bench: 13 subtypes; "mmsi-video-vision" broke at each hyphen)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.mmsi_remindview_fixtures import build_mmsi
from report.test_report_benchmarks import runs_of
from spatialbench.report import build_report
from web.conftest import chromium_browser

pytestmark = pytest.mark.slow  # two runs, a report and a browser (about 20 s)


def test_leaderboard_method_names_stay_on_one_line(tmp_path: Path) -> None:
    runs = runs_of("mmsi-video", build_mmsi(tmp_path / "data"), tmp_path)
    named = runs[0].rename(tmp_path / "mmsi-video-vision-run")
    build_report([named, runs[1]], tmp_path / "report")
    with chromium_browser() as browser:
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.goto((tmp_path / "report" / "index.html").as_uri())
        lines = tab.locator("#main-table tbody td:first-child a").evaluate_all(
            "links => links.map(a => [a.textContent, a.getClientRects().length])")
    assert lines == [["Chance Level (Random)", 1], ["mmsi-video-vision-run", 1]]
