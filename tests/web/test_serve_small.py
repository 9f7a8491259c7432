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
    # a caller asking for JSON still gets it (curl, */*, gets the page: test_page_errors_any_caller)
    detail = client.get("/item/nope", headers={"accept": "application/json"}).json()["detail"]
    assert detail == "no item 'nope' in vsibench"


def test_every_page_names_a_favicon_that_is_served(client: httpx.Client) -> None:
    page = client.get("/").text
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page)
    assert icon is not None and icon.group(1).startswith("/")
    served = client.get(icon.group(1))
    assert served.status_code == 200 and b"<svg" in served.content
    assert client.get("/favicon.ico").status_code == 200


def _links(html: str) -> dict[str, str]:
    """Link text → href of an error page's ``main``."""
    main = html.split("<main>", 1)[1]
    return {text: href for href, text in re.findall(r'<a[^>]* href="([^"]*)"[^>]*>([^<]+)</a>', main)}


@pytest.mark.parametrize(("path", "params", "back"), [
    ("/", {"page_number": "abc", "q": "chair"}, "/?q=chair"),
    ("/review", {"page_number": "1.5"}, "/review"),
    ("/scores", {"exclude": "yes"}, "/scores"),
])
def test_a_bad_query_value_is_the_friendly_422_page(client: httpx.Client, path: str, params: dict[str, str],
                                                    back: str) -> None:
    reply = client.get(path, params=params)  # no Accept: text/html either: a page address is a page
    assert reply.status_code == 422 and reply.headers["content-type"].startswith("text/html")
    name = next(k for k in params if k != "q")
    assert "<title>Error 422" in reply.text and f"{name}: " in reply.text and "form" not in reply.text
    assert f"({params[name]!r})".replace("'", "&#39;") in reply.text  # the value given, escaped
    assert _links(reply.text) == {"this page without it": back, "browse the items": "/"}


def test_every_back_on_an_error_page_is_a_link(client: httpx.Client) -> None:
    flag = client.post("/flag", data={"item_id": "1"}, headers={"Referer": f"{client.base_url}/item/1"})
    assert flag.status_code == 422 and "choose wrong, ambiguous or fine" in flag.text
    assert "back to /item" not in flag.text and _links(flag.text) == {"back to item 1": "/item/1",
                                                                      "browse the items": "/"}
    missing = client.get("/item/nope", headers={"Accept": "text/html"})
    assert missing.status_code == 404 and "browse the items at /" not in missing.text
    assert _links(missing.text) == {"browse the items": "/"}
    human = client.get("/human/nobody", headers={"Accept": "text/html"})
    assert human.status_code == 404 and "start one at /human" not in human.text
    assert _links(human.text) == {"start a human evaluation": "/human", "browse the items": "/"}
    form = client.post("/human/start", data={}, headers={"Referer": f"{client.base_url}/human"})
    assert form.status_code == 422  # a form: back to the page that sent it (same origin only)
    assert _links(form.text) == {"go back to correct it": "/human", "browse the items": "/"}
    elsewhere = client.post("/human/start", data={}, headers={"Referer": "https://example.org/human"})
    assert _links(elsewhere.text) == {"browse the items": "/"}
    for page in (flag, missing, human, form):
        assert "Go back" not in page.text.replace(">go back to correct it<", "")  # no back that is not a link
