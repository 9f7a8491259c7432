"""Browsing and human evaluation in headless Chromium: search, previous/next, a seek seen, refusals, progress.

Uses ``test_browser``'s fixtures (the demo benchmark with one vision run) and a one-room benchmark with a
zero-shot-CoT and a map-then-answer run (``support.transcript_runs``) for the transcript view.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.transcript_runs import strategy_runs
from web.conftest import TOKEN, serving
from web.test_browser import browser, page, records, screens  # noqa: F401  (fixtures)

pytestmark = pytest.mark.slow


def test_search_narrows_browse_as_you_type(page, demo_served, screens) -> None:  # noqa: F811
    every = page.locator("#items tbody tr:not([hidden])").count()
    wanted = [str(r["id"]) for r in records(demo_served) if "closest" in r["question"].lower()]
    assert 0 < len(wanted) < every == len(records(demo_served))
    page.fill("#search", "closest")
    visible = "document.querySelectorAll('#items tbody tr:not([hidden])').length"
    page.wait_for_function(f"{visible} == {len(wanted)}")
    shown = page.locator("#items tbody tr:not([hidden]) td:first-child a").all_inner_texts()
    assert sorted(shown) == sorted(wanted)
    assert page.inner_text("#shown-count") == f"{len(wanted)} shown"
    page.click("#items th:nth-child(1) a")  # sort by id (all items, the search kept): numbers as numbers
    page.wait_for_url("**sort=id**")
    assert page.get_attribute("#items th:nth-child(1)", "aria-sort") == "ascending"
    shown = page.locator("#items tbody tr:not([hidden]) td:first-child a").all_inner_texts()
    assert shown == sorted(wanted, key=int)
    page.screenshot(path=screens / "browse_search_sort.png", full_page=True)


def test_previous_and_next_walk_the_items_in_benchmark_order(page, demo_served) -> None:  # noqa: F811
    order = [str(r["id"]) for r in records(demo_served)]
    page.goto(f"{demo_served.url}/item/{order[0]}")
    assert page.locator("#prev").count() == 0
    for expected in order[1:4]:
        page.click("#next")
        page.wait_for_url(f"**/item/{expected}")
    page.click("#prev")
    page.wait_for_url(f"**/item/{order[2]}")


def test_a_seek_from_a_run_card_far_down_is_seen_in_the_sticky_video(page, demo_served, screens) -> None:  # noqa: F811
    page.set_viewport_size({"width": 1280, "height": 600})
    page.goto(f"{demo_served.url}/item/4")
    page.wait_for_function("document.querySelector('video').readyState >= 1")
    button = page.locator("#run-vision button.seek").nth(3)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    button.click()
    target = float(button.get_attribute("data-seek"))
    page.wait_for_function(f"Math.abs(document.querySelector('video').currentTime - {target}) < 0.05")
    box = page.evaluate("(() => { const r = document.querySelector('video').getBoundingClientRect();"
                        " return [r.top, r.bottom, window.innerHeight]; })()")
    assert box[0] >= 0 and box[1] > 0 and box[0] < box[2]  # the video is on screen when it seeks
    page.screenshot(path=screens / "seek_sticky.png")


def _numerical_id(served: Any) -> str:
    return next(str(r["id"]) for r in records(served) if not r["options"])


def test_a_bad_number_is_refused_by_the_form_and_by_the_server(page, demo_served, screens) -> None:  # noqa: F811
    item = _numerical_id(demo_served)
    page.goto(f"{demo_served.url}/human")
    page.fill("input[name=name]", "cal")
    page.fill("input[name=ids]", item)
    page.click("#human-start button")
    page.fill("input[name=answer]", "about two")
    assert page.evaluate("document.querySelector('input[name=answer]').checkValidity()") is False
    token = page.input_value("#human-answer input[name=csrf_token]")  # the page's form token, as it posts
    reply = page.request.post(f"{demo_served.url}/human/cal/answer", headers={"accept": "text/html"},
                              form={"item_id": item, "answer": "about two", "csrf_token": token})
    assert reply.status == 422 and "is not a number" in reply.text()
    page.goto(f"{demo_served.url}/human/cal")
    assert page.inner_text("#progress").strip() == "0 of 1 answered"  # nothing was stored
    page.set_content(reply.text())
    page.screenshot(path=screens / "human_refused.png")


def test_a_partial_human_run_reads_in_progress_and_scores_answered_items_only(page, demo_served) -> None:  # noqa: F811
    ids = [str(r["id"]) for r in records(demo_served)][:3]
    page.goto(f"{demo_served.url}/human")
    page.fill("input[name=name]", "dee")
    page.fill("input[name=ids]", ", ".join(ids))
    page.click("#human-start button")
    item_id = page.get_attribute("input[name=item_id]", "value")
    truth = next(r for r in records(demo_served) if str(r["id"]) == item_id)
    if truth["options"]:
        page.check(f"input[name=answer][value='{truth['ground_truth']}']")
    else:
        page.fill("input[name=answer]", str(truth["ground_truth"]))
    page.click("#human-answer button")
    page.wait_for_selector("#progress >> text=1 of 3 answered")
    page.goto(f"{demo_served.url}/scores")
    row = page.locator("#scores tr", has_text="human-dee")
    assert "in progress: 1 of 3" in row.inner_text()
    assert row.locator("td").nth(2).inner_text() == "1"
    # the one answered item, right (no zeros), and n; no interval from its 1 scene (was [100.0, 100.0])
    assert row.locator("td").nth(3).inner_text() == "100.0\nn=1*"


@pytest.fixture(scope="module")
def strategy_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    root = tmp_path_factory.mktemp("web-strategies")
    paths = strategy_runs(root)
    with serving(paths["data"], root / "runs", tmp_path_factory.mktemp("work")) as served:
        yield served


def test_cot_and_map_items_show_every_turn_the_frames_and_the_maps(browser, strategy_served, screens) -> None:  # noqa: F811
    tab = browser.new_page(viewport={"width": 1400, "height": 1000})
    tab.goto(f"{strategy_served.url}/item/0?token={TOKEN}")
    cot = tab.locator("#run-cot")
    assert cot.locator(".turn").evaluate_all("ts => ts.map(t => t.dataset.turn)") == ["cot", "extract"]
    assert "Let's think step by step." in cot.locator(".turn").nth(0).inner_text()
    assert "Therefore, the answer is D." in cot.locator(".turn").nth(0).inner_text()
    assert cot.locator(".turn").nth(0).locator(".thumb").count() == 4  # the 4 frames sent (uniform:4)
    assert cot.locator(".turn").nth(1).locator(".thumb").count() == 0  # the extraction turn sends none
    labels = cot.locator(".turn").nth(0).locator("figcaption").all_inner_texts()
    assert labels[0] == "0.00 s" and len(set(labels)) == 4
    card = tab.locator("#run-map")
    assert card.locator(".turn").evaluate_all("ts => ts.map(t => t.dataset.turn)") == ["map", "answer"]
    assert card.locator("svg.cogmap").count() == 2
    # the scripted model's map puts chairs at (3, 4) and (5, 6); the truth has one chair at (9, 0)
    assert card.locator("svg.cogmap").nth(0).locator("circle").count() == 3
    assert card.locator("svg.cogmap").nth(1).locator("circle").count() == 5
    tab.screenshot(path=Path(screens) / "item_transcripts.png", full_page=True)
    tab.close()
