"""Token and path-traversal checks against the running server (raw HTTP: paths are sent as written)."""

from __future__ import annotations

import hashlib
import http.client
import os
from pathlib import Path
from typing import Any

import httpx
import pytest


def raw_get(served: Any, path: str, token: str | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """GET ``path`` exactly as written (no client-side normalisation of ``..`` or ``%2e``)."""
    host, port = served.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    sent = dict(headers or {})
    if token is not None:
        sent["X-Spatialbench-Token"] = token
    conn.request("GET", path, headers=sent)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, body


ROUTES = ["/", "/item/0", "/scores", "/human", "/review", "/errors", "/static/style.css", "/media/test.jsonl"]


@pytest.mark.parametrize("path", ROUTES)
def test_no_token_or_wrong_token_is_403(tiny_served: Any, path: str) -> None:
    assert raw_get(tiny_served, path)[0] == 403
    assert raw_get(tiny_served, path, token="wrong")[0] == 403
    assert raw_get(tiny_served, path + ("&" if "?" in path else "?") + "token=nope")[0] == 403
    assert raw_get(tiny_served, path, token=tiny_served.token)[0] == 200


def test_the_403_page_names_only_options_serve_has(tiny_served: Any) -> None:
    # it once told users to restart "with --token", an option serve never had (issue 22 newcomer round)
    import re

    from typer.testing import CliRunner

    from spatialbench.cli.main import app

    status, body = raw_get(tiny_served, "/", headers={"Accept": "text/html"})
    assert status == 403
    page = body.decode()
    assert "?token=" in page and "Each start of <code>spatialbench serve</code> makes a new token" in page
    help_text = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    for option in re.findall(r"--[a-z][a-z-]+", page):
        assert option in help_text, option


def test_writes_without_token_are_403_and_write_nothing(tiny_served: Any) -> None:
    response = httpx.post(tiny_served.url + "/flag", data={"item_id": "0", "flag": "wrong"})
    assert response.status_code == 403
    assert not (tiny_served.workdir / "flags.jsonl").exists()


def test_token_in_query_sets_an_httponly_strict_cookie(tiny_served: Any) -> None:
    with httpx.Client(base_url=tiny_served.url) as client:
        first = client.get("/", params={"token": tiny_served.token})
        cookie = first.headers["set-cookie"].lower()
        assert first.status_code == 200 and "httponly" in cookie and "samesite=strict" in cookie
        assert client.get("/scores").status_code == 200  # the cookie alone is enough


@pytest.fixture(scope="module")
def outside(tiny_served: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A secret file outside the data folder, and symlinks to it (file and folder) inside the data folder."""
    secret = tmp_path_factory.mktemp("outside") / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT")
    os.symlink(secret, tiny_served.data / "link.txt")
    os.symlink(secret.parent, tiny_served.data / "linkdir")
    return secret


ESCAPES = [
    "/media/../../../../etc/passwd",
    "/media/arkitscenes/../../../../etc/passwd",
    "/media/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/media/%2E%2E%2F%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
    "/media/..%2f..%2f..%2fetc%2fpasswd",
    "/media//etc/passwd",
    "/media/%2Fetc%2Fpasswd",
    "/media/link.txt",
    "/media/linkdir/secret.txt",
    "/media/..%5c..%5cetc%5cpasswd",
    "/static/../state.py",
    "/static/%2e%2e/state.py",
    "/static/%2e%2e%2fstate.py",
]


@pytest.mark.parametrize("path", ESCAPES)
def test_paths_leaving_the_served_folders_are_refused(tiny_served: Any, outside: Path, path: str) -> None:
    status, body = raw_get(tiny_served, path, token=tiny_served.token)
    assert status == 404
    assert b"root:" not in body and b"TOP-SECRET" not in body and b"import" not in body


def test_absolute_path_to_a_file_inside_is_still_refused(tiny_served: Any) -> None:
    inside = (tiny_served.data / "test.jsonl").resolve()
    status, _ = raw_get(tiny_served, "/media/" + str(inside), token=tiny_served.token)
    assert status == 404


def test_files_inside_are_served_with_ranges_for_seeking(tiny_served: Any) -> None:
    video = tiny_served.data / "arkitscenes" / "scene0.mp4"
    status, body = raw_get(tiny_served, "/media/arkitscenes/scene0.mp4", token=tiny_served.token)
    assert status == 200 and hashlib.sha1(body).digest() == hashlib.sha1(video.read_bytes()).digest()
    status, part = raw_get(tiny_served, "/media/arkitscenes/scene0.mp4", token=tiny_served.token,
                           headers={"Range": "bytes=100-163"})
    assert status == 206 and part == video.read_bytes()[100:164]


def test_no_api_key_in_any_page(tiny_served: Any, api_secret: str) -> None:
    for path in ["/", "/item/0", "/item/1", "/scores", "/errors?run=vision"]:
        status, body = raw_get(tiny_served, path, token=tiny_served.token)
        assert status == 200 and api_secret.encode() not in body
