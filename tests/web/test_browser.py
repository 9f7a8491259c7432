"""The UI in a real browser: Playwright driving headless Chromium (Debian's ``chromium``, not Playwright's
download). Each test takes a screenshot of its page (into ``$SPATIALBENCH_SCREENSHOTS`` when set).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spatialbench.report import load_run
from spatialbench.web import excluded_ids
from web.conftest import chromium_browser

pytestmark = pytest.mark.slow  # renders a demo scene and starts a browser


@pytest.fixture(scope="module")
def browser(demo_served) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    # after demo_served: Playwright's sync API runs an event loop in this thread, and the demo run needs
    # asyncio.run()
    with chromium_browser() as chromium:
        yield chromium


@pytest.fixture
def page(browser, demo_served) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    # bypass_csp: wait_for_function evaluates strings, which the UI's CSP (no unsafe-eval) refuses
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    tab = context.new_page()
    tab.goto(f"{demo_served.url}/?token={demo_served.token}")  # sets the cookie
    yield tab
    context.close()


@pytest.fixture(scope="module")
def screens(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("SPATIALBENCH_SCREENSHOTS") or tmp_path_factory.mktemp("screens"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def records(served: Any) -> list[dict]:
    return [json.loads(line) for line in (served.data / "test.jsonl").read_text().splitlines()]


def test_browse_filters_then_open_an_item_play_and_seek_the_video(page, demo_served, screens) -> None:
    expected = [str(r["id"]) for r in records(demo_served) if r["question_type"] == "object_abs_distance"]
    page.select_option("select[name=task]", "object_abs_distance")  # applies at once, no button
    page.wait_for_function(f"document.querySelectorAll('#items tbody tr').length == {len(expected)}")
    ids = page.locator("#items tbody tr td:first-child a").all_inner_texts()
    assert ids == expected
    page.screenshot(path=screens / "browse.png", full_page=True)
    page.click('#items a >> text="4"')
    page.wait_for_function("document.querySelector('video').readyState >= 1")
    duration = page.evaluate("document.querySelector('video').duration")
    assert duration == pytest.approx(6.0, abs=0.1)  # the demo's 6 s walkthrough
    buttons = page.locator("#run-vision button.seek")
    assert buttons.count() == 4  # the 4 frames the run sent
    target = float(buttons.nth(2).get_attribute("data-seek"))
    buttons.nth(2).click()
    page.wait_for_function(f"Math.abs(document.querySelector('video').currentTime - {target}) < 0.05")
    page.evaluate("document.querySelector('video').muted = true; document.querySelector('video').play()")
    page.wait_for_function(f"document.querySelector('video').currentTime > {target} + 0.2")
    assert page.url.endswith("/item/4?task=object_abs_distance")  # the item page walks the filtered list
    page.screenshot(path=screens / "item.png", full_page=True)


def test_answer_five_items_as_a_human_and_see_the_human_row(page, demo_served, screens) -> None:
    truths = {str(r["id"]): r for r in records(demo_served)}
    page.goto(f"{demo_served.url}/human")
    page.fill("input[name=name]", "bea")
    page.fill("input[name=size]", "5")
    page.click("#human-start button")
    answered = []
    for k in range(5):
        page.wait_for_selector("#human-answer")
        item_id = page.get_attribute("input[name=item_id]", "value")
        record = truths[item_id]
        right = k < 3  # three right, two wrong
        if record["options"]:
            letters = [o.split(".")[0] for o in record["options"]]
            wrong = next(x for x in letters if x != record["ground_truth"])
            letter = record["ground_truth"] if right else wrong
            page.check(f"input[name=answer][value='{letter}']")
        else:
            page.fill("input[name=answer]", record["ground_truth"] if right else "1000000")
        if k == 0:
            page.screenshot(path=screens / "human_item.png", full_page=True)
        page.click("#human-answer button")
        answered.append(item_id)
    page.wait_for_selector("text=Done: 5 answer(s) from bea")
    page.click("text=See the score table")
    row = page.locator("#scores tr.human")
    cells = row.locator("td")
    assert cells.nth(0).inner_text() == "human-bea" and cells.nth(2).inner_text() == "5"
    page.screenshot(path=screens / "scores_human.png", full_page=True)
    run = load_run(demo_served.workdir / "human-bea")
    assert sorted(run.result.rows["score"].tolist()) == [0.0, 0.0, 1.0, 1.0, 1.0]


def test_flag_an_item_and_see_exclude_drop_it(page, demo_served, screens) -> None:
    page.goto(f"{demo_served.url}/item/7")
    page.check("#flag-form input[value=wrong]")
    page.fill("#flag-form input[name=note]", "the closet is hidden")
    page.click("#flag-form button")
    page.wait_for_selector("text=current: wrong")
    page.screenshot(path=screens / "item_flagged.png", full_page=True)
    assert excluded_ids(demo_served.workdir / "flags.jsonl") == {"7"}
    page.goto(f"{demo_served.url}/scores")
    all_items = page.locator("#scores tr", has_text="vision").locator("td").nth(2).inner_text()
    page.click("text=Leave out flagged items")
    kept = page.locator("#scores tr", has_text="vision").locator("td").nth(2).inner_text()
    assert int(kept) == int(all_items) - 1
    page.screenshot(path=screens / "scores_excluded.png", full_page=True)
    page.goto(f"{demo_served.url}/review")
    first = page.locator("#review tbody tr").first
    assert first.locator("td").first.inner_text() == "7" and "wrong" in first.inner_text()
    page.screenshot(path=screens / "review.png")


def test_annotate_an_error(page, demo_served, screens) -> None:
    page.goto(f"{demo_served.url}/errors?run=vision")
    page.click("#create-sample button")
    card = page.locator("div.run").first
    item_id = re.sub(r"^item-", "", card.get_attribute("id"))
    card.locator("input[value=visual_perception]").check()
    card.locator("input[value=egocentric_allocentric_transformation]").check()
    card.locator("button").click()
    page.wait_for_selector(f"#item-{item_id} >> text=saved")
    page.screenshot(path=screens / "errors.png")
    doc = json.loads((demo_served.runs / "vision" / "analysis" / "errors.json").read_text())
    entry = next(e for e in doc["items"] if e["id"] == item_id)
    assert entry["errors"] == ["visual_perception", "egocentric_allocentric_transformation"]
