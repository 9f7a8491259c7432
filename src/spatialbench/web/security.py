"""Access rules of the browser UI: one random token, and files served only from inside their roots.

* Token (as Jupyter does): every request must carry it — ``?token=T`` on the first page (the server then
  sets it as an HttpOnly, SameSite=Strict cookie), the cookie, or an ``X-Spatialbench-Token`` header.
  Anything else is answered 403 before any route runs. Compared in constant time.
* Files: a requested path is relative to one root folder (the benchmark data or a run folder). It is
  refused when absolute, when a segment is ``..`` (after URL decoding, so ``%2e%2e`` too), when it holds
  a NUL or a backslash, and when the resolved file — symlinks followed — is not inside the resolved root.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path, PurePosixPath

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response

from spatialbench.errors import SpatialBenchError

COOKIE = "spatialbench_token"
HEADER = "x-spatialbench-token"


class UnsafePathError(SpatialBenchError, ValueError):
    """A requested file path outside its root (the message says why, never the resolved target)."""


FORBIDDEN_PAGE = (
    "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>spatialbench: token needed</title>"
    "</head><body><main><h1>Error 403: this page needs the "
    "access token</h1><p>The token is in the URL <code>spatialbench serve</code> printed when it started "
    "(<code>http://127.0.0.1:PORT/?token=…</code>, also in the terminal that runs it). Open that URL once: "
    "the browser keeps the token in a cookie for every later page. Each start of "
    "<code>spatialbench serve</code> makes a new token: after a restart, open the new URL it printed."
    "</p></main></body></html>")
"""The 403 page a browser gets: where the token is (the terminal that runs ``serve``)."""


def new_token() -> str:
    """Return a fresh random access token (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def request_token(request: Request) -> str | None:
    """Return the token a request carries: query ``token``, then the header, then the cookie."""
    return request.query_params.get("token") or request.headers.get(HEADER) or request.cookies.get(COOKIE)


def token_middleware(token: str) -> Callable[[Request, Callable[[Request], Awaitable[Response]]],
                                              Awaitable[Response]]:
    """HTTP middleware answering 403 to requests without ``token``; sets the cookie from ``?token=``."""

    async def check(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        given = request_token(request)
        if given is None or not hmac.compare_digest(given.encode(), token.encode()):
            if "text/html" in request.headers.get("accept", ""):
                return HTMLResponse(FORBIDDEN_PAGE, status_code=403)
            return PlainTextResponse("403 forbidden: missing or wrong token", status_code=403)
        response = await call_next(request)
        if request.query_params.get("token"):
            response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
        return response

    return check


def safe_file(root: Path, relative: str) -> Path:
    """Return the file ``relative`` names inside ``root``.

    Raises:
        UnsafePathError: absolute path, ``..`` segment, NUL or backslash, or a target (symlinks
            resolved) outside ``root``. FileNotFoundError: inside the root but not a file.
    """
    if not relative or "\x00" in relative or "\\" in relative:
        raise UnsafePathError("bad characters in path")
    pure = PurePosixPath(relative)
    if pure.is_absolute() or relative.startswith("/"):
        raise UnsafePathError("absolute paths are not served")
    if any(part == ".." for part in pure.parts):
        raise UnsafePathError("'..' is not allowed in paths")
    base = root.resolve()
    target = (base / pure).resolve()
    if not target.is_relative_to(base):
        raise UnsafePathError("path leaves the served folder")
    if not target.is_file():
        raise FileNotFoundError(relative)
    return target
