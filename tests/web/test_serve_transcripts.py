"""The UI's item page renders the transcript through the renderer the report uses (``spatialbench.views``).

The zero-shot-CoT run of ``support.transcript_runs`` with a judge's request about item 0 (asked through the
real asker, ``report.test_report_transcripts._judge``), served over HTTP.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from report.test_report_transcripts import _judge
from spatialbench.runs.folder import open_run
from spatialbench.runs.transcript import transcript
from spatialbench.views import stylesheet, transcript_html
from spatialbench.web.transcripts import thumbnail
from support.transcript_runs import strategy_runs
from web.conftest import serving


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, dict[str, Path]]]:
    root = tmp_path_factory.mktemp("web-transcripts")
    paths = strategy_runs(root)
    _judge(paths["cot"])
    with serving(paths["data"], root / "runs", tmp_path_factory.mktemp("work")) as server:
        yield server, paths


def test_the_item_page_holds_the_shared_fragment_with_the_judge(served) -> None:
    server, paths = served
    with httpx.Client(base_url=server.url, headers={"X-Spatialbench-Token": server.token}) as client:
        page = client.get("/item/0").text
        css = client.get("/transcript.css")
    found = transcript(open_run(paths["cot"]), "0")
    assert found is not None
    fragment = transcript_html(found, lambda image: thumbnail(paths["data"], image))
    assert fragment in page  # the UI shows exactly what the shared renderer writes
    assert (
        'data-kind="judge"' in fragment
        and "verdict: <code>{&#34;verdict&#34;: &#34;correct&#34;}" in fragment
    )
    assert 'src="/media/arkitscenes/room0.mp4#t=0.067"' in fragment  # frame 2 of the 30 fps video
    assert (
        css.status_code == 200
        and css.text == stylesheet()
        and css.headers["content-type"].startswith("text/css")
    )
    assert '<link rel="stylesheet" href="/transcript.css">' in page
