"""Issue 26 item 1: a page on another 127.0.0.1 port auto-submits a form to every write route of the UI.

Chromium sends the SameSite=Strict token cookie with such a form (every port of 127.0.0.1 is one site), so
before the fix the forged flag reached flags.jsonl. Each forged write must now be answered 403 and write
nothing, while the UI's own forms still work; the security headers are asserted on real responses.
"""

from __future__ import annotations

import functools
import html
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from support.web_writes import WRITES
from web.conftest import chromium_browser

pytestmark = pytest.mark.slow  # starts a browser


def attack_page(target: str, fields: dict[str, str]) -> str:
    inputs = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
                     for k, v in fields.items())
    return (f'<html><body onload="document.forms[0].submit()"><form method="post" action="{target}">'
            f"{inputs}</form></body></html>")


@pytest.fixture(scope="module")
def attacker(tiny_served: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second origin (an ``http.server`` on another port): one auto-submitting page per route."""
    folder = tmp_path_factory.mktemp("attacker")
    for n, (route, fields) in enumerate(WRITES.items()):
        (folder / f"{n}.html").write_text(attack_page(tiny_served.url + route, fields))
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def tab(tiny_served: Any) -> Iterator[Any]:
    with chromium_browser() as chromium:
        context = chromium.new_context()
        page = context.new_page()
        page.goto(f"{tiny_served.url}/?token={tiny_served.token}")  # the victim's session: cookie set
        yield page
        context.close()


def written(served: Any) -> set[str]:
    return {str(p.relative_to(root)) for root in (served.workdir, served.runs) for p in root.rglob("*")
            if p.is_file() and ("flags" in p.name or "human" in str(p) or "errors.json" in p.name)}


def test_ui_own_forms_work_then_every_forged_write_is_refused(tab: Any, tiny_served: Any,
                                                              attacker: str) -> None:
    # the UI's own forms: start the human run "own" and save a flag
    tab.goto(f"{tiny_served.url}/human")
    tab.fill("#human-start input[name=name]", "own")
    tab.fill("#human-start input[name=ids]", "0, 1")
    with tab.expect_navigation():
        tab.click("#human-start button")
    assert tab.url.endswith("/human/own"), tab.content()[:600]
    tab.goto(f"{tiny_served.url}/item/0")
    tab.check("#flag-form input[value=fine]")
    with tab.expect_navigation():
        tab.click("#flag-form button")
    assert '"flag": "fine"' in (tiny_served.workdir / "flags.jsonl").read_text().replace('":"', '": "')
    before = written(tiny_served)
    flags_before = (tiny_served.workdir / "flags.jsonl").read_text()
    for n, route in enumerate(WRITES):
        with tab.expect_response(lambda r, route=route: r.url == tiny_served.url + route) as info:
            tab.goto(f"{attacker}/{n}.html")
        response = info.value
        assert response.status == 403, route
        assert "cross-site write refused" in response.text()
    assert written(tiny_served) == before  # no forged human run, annotation file or sample
    assert (tiny_served.workdir / "flags.jsonl").read_text() == flags_before


def test_a_stale_form_token_in_chromium_gets_the_reload_page(tab: Any, tiny_served: Any) -> None:
    tab.goto(f"{tiny_served.url}/item/1")
    token = tab.input_value("#flag-form input[name=csrf_token]")
    assert len(token) == 64 and token != tiny_served.token  # HMAC-SHA256 of the session, hex
    before = (tiny_served.workdir / "flags.jsonl").read_bytes()
    # as a page rendered by an earlier server start would post it: same origin, other token
    tab.eval_on_selector("#flag-form input[name=csrf_token]", "input => input.value = '0'.repeat(64)")
    tab.check("#flag-form input[value=wrong]")
    with tab.expect_response(lambda r: r.url == tiny_served.url + "/flag") as info:
        tab.click("#flag-form button")
    assert info.value.status == 403
    assert tab.inner_text("h1") == "Error 403" and "reload the page" in tab.inner_text("#error")
    assert (tiny_served.workdir / "flags.jsonl").read_bytes() == before


def test_security_headers_on_pages_and_media(tiny_served: Any) -> None:
    headers = {"X-Spatialbench-Token": tiny_served.token}
    page = httpx.get(tiny_served.url + "/", headers=headers)
    policy = page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy
    assert "form-action 'self'" in policy
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["x-content-type-options"] == "nosniff"
    (tiny_served.data / "evil.html").write_text("<script>fetch('/flag',{method:'POST'})</script>")
    (tiny_served.data / "evil.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>')
    for name in ("evil.html", "evil.svg"):
        media = httpx.get(f"{tiny_served.url}/media/{name}", headers=headers)
        assert media.status_code == 200
        assert media.headers["content-security-policy"].startswith("sandbox")
        assert media.headers["content-disposition"] == "attachment"
        assert media.headers["x-content-type-options"] == "nosniff"
    video = httpx.get(f"{tiny_served.url}/media/arkitscenes/scene0.mp4", headers=headers)
    assert video.headers["content-security-policy"].startswith("sandbox")
    assert "content-disposition" not in video.headers  # videos still play inline


def test_cross_origin_header_refused_without_a_browser(tiny_served: Any) -> None:
    sent = {"X-Spatialbench-Token": tiny_served.token, "Origin": "http://127.0.0.1:1"}
    response = httpx.post(tiny_served.url + "/flag", data={"item_id": "1", "flag": "wrong"}, headers=sent)
    assert response.status_code == 403 and "Origin" in response.text
    sent = {"X-Spatialbench-Token": tiny_served.token, "Sec-Fetch-Site": "same-site"}
    assert httpx.post(tiny_served.url + "/flag", data={"item_id": "1", "flag": "wrong"},
                      headers=sent).status_code == 403
