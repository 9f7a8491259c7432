"""Run cards of an item page (UI and report) that show what was sent, not an empty box: a chance baseline
sent no request (one line says so), an MMSI-Video-Bench run sent frame files (shown as those images, with no
seek buttons for a video it never sent)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import html5lib
import httpx
import pytest

from benchmarks.mmsi_remindview_fixtures import build_mmsi
from spatialbench.api import run
from spatialbench.report import build_report
from spatialbench.runs import RunConfig
from support.openai_server import OpenAIServer, ServerScript
from support.transcript_runs import room_data
from web.conftest import serving


def _runs(benchmark: str, data: Path, runs: Path, **extra: Any) -> None:
    with OpenAIServer(ServerScript(answer=lambda text: "B")) as server:
        for name, model in (("vision", f"openai-compatible:{server.url}#m"), ("chance", "chance-random")):
            run(RunConfig.model_validate({"data": {"benchmark": benchmark, "path": str(data), **extra},
                                          "model": {"name": model}, "out": str(runs / name)}), progress=False)


@pytest.fixture(scope="module")
def vsi(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Path]]:
    root = tmp_path_factory.mktemp("cards-vsi")
    data = room_data(root / "data")
    _runs("vsibench", data, root / "runs")
    build_report([root / "runs" / "vision", root / "runs" / "chance"], root / "report")
    with serving(data, root / "runs", tmp_path_factory.mktemp("work")) as served:
        yield served, root


@pytest.fixture(scope="module")
def mmsi(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    root = tmp_path_factory.mktemp("cards-mmsi")
    data = build_mmsi(root / "data")
    _runs("mmsi-video", data, root / "runs", ids=["question_0010"])
    with serving(data, root / "runs", tmp_path_factory.mktemp("work"), "mmsi-video") as served:
        yield served


def _card(html: str, run: str):  # type: ignore[no-untyped-def]
    tree = html5lib.parse(html, namespaceHTMLElements=False)
    return next(e for e in tree.iter("div") if e.get("id") == f"run-{run}")


def _get(served: Any, path: str) -> str:
    with httpx.Client(base_url=served.url, headers={"X-Spatialbench-Token": served.token}) as client:
        reply = client.get(path)
    assert reply.status_code == 200
    return reply.text


def _boxes(card) -> list[str]:  # type: ignore[no-untyped-def]
    return [e.get("class") for e in card.iter("div") if (e.get("class") or "").startswith("msg")]


@pytest.mark.parametrize("where", ["ui", "report"])
def test_a_chance_card_says_no_request_was_sent(vsi, where: str) -> None:
    served, root = vsi
    html = _get(served, "/item/0") if where == "ui" else (root / "report" / "items" / "0.html").read_text()
    chance, vision = _card(html, "chance"), _card(html, "vision")
    notes = [e for e in chance.iter("p") if e.get("class") == "unsent"]
    assert ["".join(n.itertext()) for n in notes] == [
        "no request: the chance-random baseline answers without a model (nothing was sent)"]
    assert _boxes(chance) == ["msg assistant"]  # no empty user box
    assert "random letter" in "".join(chance.itertext())
    summaries = ["".join(s.itertext()) for s in chance.iter("summary")]
    assert "stored record (no request)" in summaries and "raw request (secrets redacted)" not in summaries
    assert _boxes(vision) == ["msg user", "msg assistant"]
    assert not [e for e in vision.iter("p") if e.get("class") == "unsent"]


def test_an_mmsi_card_shows_the_frame_files_sent_and_no_seek_buttons(mmsi) -> None:
    card = _card(_get(mmsi, "/item/question_0010"), "vision")
    sources = [img.get("src") for img in card.iter("img")]
    assert sources == [
        "/media/frames/question_0010/video_0/00%3A00.00_frame_2_0.jpg",
        "/media/frames/question_0010/video_0/00%3A02.00_frame_2_1.jpg",
        "/media/ref_images/question_0010_ref_0.png",
        "/media/frames/question_0010/video_1/00%3A00.00_frame_2_0.jpg",
        "/media/ref_images/question_0010_ref_1.png",
        "/media/frames/question_0010/video_2/00%3A00.00_frame_2_0.jpg",
        "/media/frames/question_0010/video_2/00%3A02.00_frame_2_1.jpg"]
    assert not list(card.iter("video")) and not [b for b in card.iter("button") if b.get("class") == "seek"]
    assert "frames setting=uniform-50" in "".join(card.find("h3").itertext())


def test_browse_shows_no_column_that_every_item_leaves_empty(vsi, mmsi) -> None:
    def headers(served: Any) -> list[str]:
        table = next(t for t in html5lib.parse(_get(served, "/"), namespaceHTMLElements=False).iter("table")
                     if t.get("id") == "items")
        rows = table.find("tbody").findall("tr")
        assert {len(r.findall("td")) for r in rows} == {len(table.find("thead").find("tr").findall("th"))}
        return ["".join(th.itertext()) for th in table.find("thead").find("tr").findall("th")]

    assert headers(vsi[0]) == ["id", "task", "scene", "question", "truth", "chance", "vision"]
    assert headers(mmsi) == ["id", "task", "question", "truth", "chance", "vision"]  # no scene in MMSI


def test_the_search_box_shows_its_whole_hint(mmsi) -> None:
    from web.conftest import chromium_browser

    with chromium_browser() as browser:
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.goto(f"{mmsi.url}/?token={mmsi.token}")
        box = tab.locator("#search")
        hint, free = box.evaluate(
            "e => { const s = getComputedStyle(e);"
            " const c = document.createElement('canvas').getContext('2d');"
            " c.font = s.font; return [c.measureText(e.placeholder).width,"
            " e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)]; }")
        assert "search" in box.get_attribute("placeholder") and 0 < hint <= free


def test_an_item_s_images_sit_in_a_row_at_a_readable_size(tmp_path_factory: pytest.TempPathFactory) -> None:
    from benchmarks.mmsi_remindview_fixtures import build_remindview
    from web.conftest import chromium_browser

    root = tmp_path_factory.mktemp("cards-remindview")
    data = build_remindview(root / "data")
    (root / "runs").mkdir()
    with serving(data, root / "runs", root / "work", "remindview") as served, chromium_browser() as browser:
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.goto(f"{served.url}/item/object_centric_qa:2?token={served.token}")
        boxes = tab.locator("#media figure img").evaluate_all(
            "images => images.map(i => [i.alt, i.getBoundingClientRect().top,"
            " i.getBoundingClientRect().width])")
    assert [alt for alt, _, _ in boxes] == ["frame0", "frame1", "frame2", "frame3"]
    assert len({round(top) for _, top, _ in boxes}) == 2  # side by side (3 fit the column), not one per line
    assert all(width >= 120 for _, _, width in boxes)  # the fixture's images are 16 px: shown at 160 px
