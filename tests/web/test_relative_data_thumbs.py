"""Thumbnails of a run made with a relative ``--data`` load on the item page (issue 22, newcomer defect 2).

Every command of the docs runs ``--data demo-out/benchmark``; the run stores each media source as given
(``demo-out/benchmark/synthetic/x.mp4``) and the page asked ``/media/demo-out/benchmark/...``: a 404 under
the served benchmark, while the main player's ``/media/synthetic/...`` worked.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from spatialbench.runs.transcript import SentImage
from spatialbench.web.transcripts import thumbnail
from support.vsi_data import answer_script, make_vsibench
from web.conftest import TOKEN, Served, chromium_browser, serving, vision_run


@pytest.fixture(scope="module")
def relative(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("relative-data")
    answers = make_vsibench(root / "work" / "bench-out" / "benchmark", n_videos=1, per_video=2, n_frames=24)
    here = Path.cwd()
    os.chdir(root / "work")
    try:
        vision_run(Path("bench-out/benchmark"), root / "runs" / "vision", answer_script(answers))
    finally:
        os.chdir(here)
    with serving(root / "work" / "bench-out" / "benchmark", root / "runs", root / "serve-out") as served:
        yield served


def test_a_source_stored_relative_to_where_the_run_ran_is_found_under_the_benchmark(relative: Served) -> None:
    image = SentImage("bench-out/benchmark/arkitscenes/scene0.mp4", 4, 0.5, "0.50 s")
    assert thumbnail(relative.data, image).url == "/media/arkitscenes/scene0.mp4#t=0.500"
    inside = SentImage("arkitscenes/scene0.mp4", 4, 0.5, "0.50 s")  # already relative to the benchmark
    assert thumbnail(relative.data, inside).url == "/media/arkitscenes/scene0.mp4#t=0.500"
    assert thumbnail(relative.data, SentImage("elsewhere/scene9.mp4", 1, 0.1, "0.10 s")).url is None


@pytest.mark.slow
def test_thumbnails_of_a_relative_data_run_load_in_chromium(relative: Served) -> None:
    with chromium_browser() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
        tab = context.new_page()
        tab.goto(f"{relative.url}/?token={TOKEN}")
        tab.goto(f"{relative.url}/item/0")
        thumbs = tab.locator(".transcript video, .transcript img")
        assert thumbs.count() == 4  # uniform:4
        sources = [thumbs.nth(k).get_attribute("src") for k in range(thumbs.count())]
        assert all(s.startswith("/media/arkitscenes/scene0.mp4#t=") for s in sources), sources
        statuses = tab.evaluate("Promise.all([...document.querySelectorAll('.transcript video')]"
                                ".map(v => fetch(v.src.split('#')[0]).then(r => r.status)))")
        # 206: Chromium may answer from the range request the <video> already made (a partial response)
        assert len(statuses) == 4 and set(statuses) <= {200, 206}, statuses
        tab.wait_for_function("[...document.querySelectorAll('.transcript video')]"
                              ".every(v => v.readyState >= 1 && v.videoWidth > 0)")
        context.close()
