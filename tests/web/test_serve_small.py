"""Small UI faults of issue 14 on the real server: the name pattern under the browser's ``v`` flag, the
page number clamped, HTML error pages for form posts, and a favicon (no 404 on every page)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Any

import httpx
import pytest


@pytest.fixture
def client(tiny_served: Any):  # type: ignore[no-untyped-def]
    headers = {"X-Spatialbench-Token": tiny_served.token}
    with httpx.Client(base_url=tiny_served.url, headers=headers) as client:
        yield client


def test_name_pattern_compiles_under_the_v_flag_and_matches_run_names(client: httpx.Client) -> None:
    found = re.search(r'name="name" required pattern="([^"]+)"', client.get("/human").text)
    assert found is not None
    pattern = found.group(1).replace("&#34;", '"')
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (the v-flag check runs JavaScript's RegExp)")
    script = ("const p = new RegExp('^(?:' + process.argv[1] + ')$', 'v');"
              "console.log(JSON.stringify(['ana-1_b', 'a b', '', 'x'.repeat(41)].map(s => p.test(s))))")
    out = subprocess.run([node, "-e", script, pattern], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [True, False, False, False]


@pytest.mark.parametrize("number", ["-1", "99"])
def test_page_number_is_clamped(client: httpx.Client, number: str) -> None:
    page = client.get("/", params={"page_number": number})
    assert page.status_code == 200
    assert "page 0 of" not in page.text and "item/0" in page.text  # the 6 items fit on page 1


def test_form_post_errors_are_small_html_pages(client: httpx.Client) -> None:
    bad = client.post("/flag", data={"item_id": "1", "flag": "maybe"})
    assert bad.status_code == 400 and bad.headers["content-type"].startswith("text/html")
    assert "<title>Error 400" in bad.text and "maybe" in bad.text and 'href="/"' in bad.text
    missing = client.post("/human/start", data={})  # a required field missing: 422
    assert missing.status_code == 422 and missing.headers["content-type"].startswith("text/html")
    assert "name" in missing.text
    detail = client.get("/item/nope").json()["detail"]  # an API caller still gets JSON
    assert detail == "no item 'nope' in vsibench: browse the items at /"


def test_every_page_names_a_favicon_that_is_served(client: httpx.Client) -> None:
    page = client.get("/").text
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page)
    assert icon is not None and icon.group(1).startswith("/")
    served = client.get(icon.group(1))
    assert served.status_code == 200 and b"<svg" in served.content
    assert client.get("/favicon.ico").status_code == 200
