"""Cross-site request forgery defence and security headers of the browser UI (issue 26 item 1).

Every port of 127.0.0.1 is the same *site*, so the SameSite=Strict token cookie is sent with a form that
a page on another port (a notebook, a dev server, ``python -m http.server`` over a downloaded folder)
auto-submits. A write (any method but GET/HEAD/OPTIONS) is therefore refused with 403 unless the browser
says it comes from this origin: ``Sec-Fetch-Site`` must be ``same-origin`` or ``none`` (typed by the
user), and ``Origin`` (``null`` included) must equal this server's ``scheme://host``. Callers that send
neither header (curl, httpx, scripts) are not browsers, so no page can forge them; they still need the
token (:mod:`spatialbench.web.security`).

Every response carries a Content-Security-Policy (own scripts, styles and media only; no framing; forms
post only here), ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff`` and
``Referrer-Policy: same-origin`` (``no-referrer`` makes Chromium send ``Origin: null`` on the UI's own
posts). Files under ``/media`` come from the data folder and are untrusted: they
get ``Content-Security-Policy: sandbox`` (an ``.html`` or ``.svg`` opened there runs no script on the
UI's origin) and, for types a browser would render as a document, ``Content-Disposition: attachment``.

Every POST form of the UI also carries a form token (hidden ``csrf_token``): HMAC-SHA256 of the session's
access token under a secret drawn when the server starts, so a form rendered by an earlier server (or
never rendered) is refused. It is checked, in constant time, on every write that carries the session
cookie (a browser: the only kind of caller a page can make send it); scripts that authenticate with the
``X-Spatialbench-Token`` header and no cookie need none, since no page can add that header to a form.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Form, HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from spatialbench.web.security import COOKIE, request_token

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SAME_ORIGIN_FETCH = frozenset({"same-origin", "none"})
PAGE_POLICY = ("default-src 'self'; img-src 'self' data:; media-src 'self'; object-src 'none'; "
               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
MEDIA_POLICY = "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; frame-ancestors 'none'"
DOCUMENT_TYPES = ("text/html", "image/svg", "application/xhtml", "text/xml", "application/xml")
HEADERS = {"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}

STALE_FORM = ("this form is stale or was not made by this page (the server restarted since it was shown, "
              "or another site sent it): reload the page and submit it again")

Next = Callable[[Request], Awaitable[Response]]


def cross_site_reason(request: Request) -> str | None:
    """Return why a write request is refused as cross-site, or None when it may run.

    Reads ``Sec-Fetch-Site`` and ``Origin`` (Fetch Metadata, W3C; RFC 6454). Safe methods are never refused.
    """
    if request.method in SAFE_METHODS:
        return None
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site.lower() not in SAME_ORIGIN_FETCH:
        return f"Sec-Fetch-Site is {fetch_site!r}"
    origin = request.headers.get("origin")
    if origin is not None:
        own = f"{request.url.scheme}://{request.headers.get('host', '')}"
        if origin.rstrip("/").lower() != own.lower():
            return f"Origin {origin!r} is not {own!r}"
    return None


def secure_headers(response: Response, path: str) -> Response:
    """Add the security headers to ``response`` (the media policy for ``/media/...``); return it."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if path.startswith("/media/"):
        response.headers["Content-Security-Policy"] = MEDIA_POLICY
        kind = response.headers.get("content-type", "").lower()
        if kind.startswith(DOCUMENT_TYPES):
            response.headers["Content-Disposition"] = "attachment"
    else:
        response.headers.setdefault("Content-Security-Policy", PAGE_POLICY)
    return response


async def csrf_middleware(request: Request, call_next: Next) -> Response:
    """HTTP middleware: 403 for a cross-site write (nothing runs); security headers on every response."""
    reason = cross_site_reason(request)
    if reason is not None:
        refused = PlainTextResponse(f"403 forbidden: cross-site write refused ({reason}); "
                                    "use the UI's own forms", status_code=403)
        return secure_headers(refused, request.url.path)
    return secure_headers(await call_next(request), request.url.path)


def new_form_secret() -> bytes:
    """Return the per-start secret the form tokens are signed with (32 random bytes)."""
    return secrets.token_bytes(32)


def _sign(secret: bytes, session: str) -> str:
    return hmac.new(secret, session.encode(), hashlib.sha256).hexdigest()


def form_token(request: Request) -> str:
    """Return the form token of ``request``'s session (64 hex digits) for the hidden ``csrf_token`` field.

    The session is the access token the request carries (``?token=`` on the first page, later the cookie;
    the token middleware has checked it); the secret is ``app.state.form_secret``.
    """
    return _sign(request.app.state.form_secret, request_token(request) or "")


def check_form_token(request: Request, csrf_token: Annotated[str, Form()] = "") -> None:
    """Route dependency of every write: the form token must match the session cookie's.

    Raises:
        HTTPException: 403 (the form is stale: reload it) when the request carries the session cookie and
            ``csrf_token`` is missing or wrong. Requests without the cookie pass (see the module docstring).
    """
    session = request.cookies.get(COOKIE)
    if session is None:
        return
    expected = _sign(request.app.state.form_secret, session)
    if not hmac.compare_digest(csrf_token.encode(), expected.encode()):
        raise HTTPException(403, STALE_FORM)
