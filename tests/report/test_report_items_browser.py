"""The report's "All items" page in headless Chromium: search, sortable columns, score colours, one decimal
(issue 22 newcomer round, item 2; the script and colours are the UI's, ``spatialbench.views.tables``).

Six VSI-Bench items, one run on the loopback server: multiple-choice answered right, counting answered one
more than the truth (MRA: the share of thresholds 0.50, 0.55, … 0.95 with relative error 1/t < 1 - θ).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spatialbench.report import build_report
from support.vsi_data import make_vsibench, question_tag
from web.conftest import chromium_browser, vision_run

pytestmark = pytest.mark.slow  # a run, a report and a browser


def mra_of_one_more(truth: int) -> float:
    thresholds = [0.5 + 0.05 * k for k in range(10)]
    return sum(1 / truth < 1 - t for t in thresholds) / 10


def test_all_items_page_searches_sorts_and_colours(tmp_path: Path) -> None:
    answers = make_vsibench(tmp_path / "data", n_videos=1, per_video=6, n_frames=8)
    rows = [json.loads(line) for line in (tmp_path / "data" / "test.jsonl").read_text().splitlines()]

    def answer(text: str) -> str:
        truth = answers[question_tag(text) or ""]
        return truth if truth in "ABCD" else str(int(truth) + 1)

    vision_run(tmp_path / "data", tmp_path / "runs" / "vision", answer)
    build_report([tmp_path / "runs" / "vision"], tmp_path / "report")
    expected = {str(r["id"]): 100.0 if r["options"] else 100 * mra_of_one_more(int(r["ground_truth"]))
                for r in rows}
    with chromium_browser() as browser:
        tab = browser.new_page()
        tab.goto((tmp_path / "report" / "items" / "index.html").as_uri())
        cells = tab.locator("table.items tbody tr").evaluate_all(
            "rows => rows.map(r => [r.cells[0].innerText, r.cells[3].innerText, r.cells[3].className])")
        assert {c[0]: c[1] for c in cells} == {k: f"{v:.1f}" for k, v in expected.items()}
        classes = {"s-hi" if v >= 75 else "s-mid" if v >= 25 else "s-lo" for v in expected.values()}
        assert {c[2] for c in cells} == classes and "s-hi" in classes
        target = rows[3]
        tab.fill("#search", f"[{question_tag(target['question'])}]")
        visible = tab.locator("table.items tbody tr:not([hidden]) td:first-child").all_inner_texts()
        assert visible == [str(target["id"])] and tab.inner_text("#shown-count") == "1 shown"
        tab.fill("#search", "")
        header = tab.locator("table.items").first.locator("th", has_text="vision")
        header.click()
        assert header.get_attribute("aria-sort") == "ascending"
        header.click()
        assert header.get_attribute("aria-sort") == "descending"
        table = tab.locator("table.items").first
        scores = [float(s) for s in table.locator("tbody td:nth-child(4)").all_inner_texts()]
        assert scores == sorted(scores, reverse=True)
        tab.screenshot(path=str(tmp_path / "items.png"), full_page=True)
