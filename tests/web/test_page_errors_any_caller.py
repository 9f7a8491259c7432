"""A page address that names nothing is the HTML error page for any caller (issue 22, newcomer defect 8).

``curl`` (no ``text/html`` in ``Accept``) got raw JSON for ``/item/999``, ``/human/nobody`` and
``/errors?run=nonexistent``, and a raw 422 for ``/scores?exclude=abc``; media and assets keep plain 404s.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from spatialbench.web import ServeConfig, create_app
from support.vsi_data import make_vsibench

TOKEN = "t0k3n-for-page-errors"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    root = tmp_path_factory.mktemp("page-errors")
    make_vsibench(root / "data", n_videos=1, per_video=2, n_frames=12)
    app = create_app(ServeConfig(data=root / "data", workdir=root / "work", token=TOKEN))
    return TestClient(app, headers={"X-Spatialbench-Token": TOKEN, "accept": "*/*"})


@pytest.mark.parametrize(("address", "status", "said"), [
    ("/item/999", 404, "no item &#39;999&#39; in vsibench"),
    ("/human/nobody", 404, "nobody"),
    ("/errors?run=nonexistent", 404, "nonexistent"),
    ("/scores?exclude=abc", 422, "abc"),
])
def test_a_page_address_naming_nothing_is_an_html_page(client: TestClient, address: str, status: int,
                                                      said: str) -> None:
    reply = client.get(address)
    assert reply.status_code == status
    assert reply.headers["content-type"].startswith("text/html"), reply.text
    assert said in reply.text and '<a href="/">' in reply.text


def test_a_missing_media_file_stays_a_plain_404(client: TestClient) -> None:
    reply = client.get("/media/nothing.mp4")
    assert reply.status_code == 404 and reply.headers["content-type"] == "application/json"


def test_leaving_out_flagged_items_when_none_is_flagged_says_so(client: TestClient) -> None:
    page = client.get("/scores?exclude=1").text  # newcomer: "left out (0: )."
    assert "No item is flagged wrong or ambiguous: nothing left out." in page and "(0: )" not in page
