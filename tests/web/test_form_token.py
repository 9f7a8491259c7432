"""Issue 26 item 1: per-session form tokens (hidden ``csrf_token``) on every write route of the UI.

A request carrying the session cookie (what a browser sends, forged form or not) must carry the token its
page was rendered with: missing, wrong, or from an earlier server start is 403 with the "reload the page"
message, and nothing is written. Scripts authenticating with the token header and no cookie need none.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from spatialbench.web import ServeConfig, create_app
from spatialbench.web.security import COOKIE
from support.web_writes import WRITES

HTML = {"accept": "text/html"}


def shown_token(client: httpx.Client | TestClient, path: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]*)"', client.get(path).text)
    assert found is not None, path
    return found.group(1)


def written(served: Any) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for root in (served.workdir, served.runs) for p in root.rglob("*")
            if p.is_file() and ("flags" in p.name or "human" in str(p) or "errors.json" in p.name)}


def test_cookie_session_posts_without_the_form_token_are_403_and_write_nothing(tiny_served: Any) -> None:
    with httpx.Client(base_url=tiny_served.url) as browser:
        browser.get("/", params={"token": tiny_served.token})  # the session cookie, as a browser holds it
        token = shown_token(browser, "/human")
        started = browser.post("/human/start", data={"name": "own", "ids": "0", "csrf_token": token})
        assert started.status_code == 303
        # the token is HMAC-SHA256 (64 hex digits) of the session, the same in every form of the session
        assert re.fullmatch("[0-9a-f]{64}", token) and token != tiny_served.token
        assert shown_token(browser, "/item/0") == shown_token(browser, "/human/own") == token
        before = written(tiny_served)
        for route, fields in WRITES.items():
            for sent in ({}, {"csrf_token": ""}, {"csrf_token": "0" * 64}, {"csrf_token": token[:-1] + "x"},
                         {"csrf_token": tiny_served.token}):
                refused = browser.post(route, data={**fields, **sent}, headers=HTML)
                assert refused.status_code == 403, (route, sent)
                assert "Error 403" in refused.text and "reload the page" in refused.text
        assert written(tiny_served) == before
        saved = browser.post("/flag", data={"item_id": "1", "flag": "fine", "csrf_token": token})
        assert saved.status_code == 303
        assert '"note": "forged"' not in (tiny_served.workdir / "flags.jsonl").read_text()


def test_scripts_with_the_token_header_and_no_cookie_need_no_form_token(tiny_served: Any) -> None:
    headers = {"X-Spatialbench-Token": tiny_served.token}
    response = httpx.post(tiny_served.url + "/flag", data={"item_id": "2", "flag": "ambiguous"},
                          headers=headers)
    assert response.status_code == 303
    # the header does not lift the check from a request that also carries the session cookie
    cookie = {COOKIE: tiny_served.token}
    with httpx.Client(base_url=tiny_served.url, headers=headers, cookies=cookie) as both:
        assert both.post("/flag", data={"item_id": "2", "flag": "fine"}).status_code == 403


def test_a_form_of_an_earlier_server_start_is_stale(tiny_served: Any, tmp_path: Path) -> None:
    config = ServeConfig(data=tiny_served.data, workdir=tmp_path, token=tiny_served.token)
    first, restarted = create_app(config), create_app(config)  # same --token, new secret per start
    with TestClient(first) as old, TestClient(restarted) as new:
        old.get("/", params={"token": tiny_served.token})
        new.get("/", params={"token": tiny_served.token})
        stale = shown_token(old, "/item/0")
        secret = restarted.state.form_secret
        assert len(secret) == 32 and secret != first.state.form_secret
        expected = hmac.new(secret, tiny_served.token.encode(), hashlib.sha256).hexdigest()
        assert shown_token(new, "/item/0") == expected != stale
        fields = {"item_id": "0", "flag": "fine"}
        assert new.post("/flag", data={**fields, "csrf_token": stale}).status_code == 403
        saved = new.post("/flag", data={**fields, "csrf_token": expected}, follow_redirects=False)
        assert saved.status_code == 303


@pytest.mark.parametrize("route", sorted(WRITES))
def test_a_cookie_post_is_refused_before_its_fields_are_validated(tiny_served: Any, route: str) -> None:
    with httpx.Client(base_url=tiny_served.url, cookies={COOKIE: tiny_served.token}) as browser:
        assert browser.post(route, data={}).status_code == 403  # not 422: nothing of the form is looked at
