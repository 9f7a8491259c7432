"""The UI's error pages: the message, and every way on as a link (never a path to type).

A route raises :class:`PageError` to offer its own way back (the item a flag was for, the human-evaluation
form); a form that did not validate links back to the page that sent it (its same-origin ``Referer``); an
address with a query value a page cannot use (``?page_number=abc``) links to the same page without it.
Every page links to browse. API callers (no ``text/html`` in ``Accept``, not a form post) keep FastAPI's
JSON, except for a bad query value: every address with query values is a page.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode, urlsplit

from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request

from spatialbench.errors import SpatialBenchError


class PageError(HTTPException, SpatialBenchError):
    """An HTTP error whose page links ``back_text`` to ``back`` (a path of this server).

    Also a :class:`SpatialBenchError`, as every error spatialbench raises on purpose is.
    """

    def __init__(self, status: int, detail: str, back: str, back_text: str) -> None:
        super().__init__(status, detail)
        self.back = back
        self.back_text = back_text


def referer_path(request: Request) -> str | None:
    """Return the path and query of the page that sent ``request`` when it is of this server, else None."""
    found = request.headers.get("referer")
    if not found:
        return None
    parts = urlsplit(found)
    if (parts.scheme, parts.netloc) != (request.url.scheme, request.url.netloc) or not parts.path:
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def query_errors(exc: RequestValidationError) -> list[dict[str, Any]]:
    """Return the validation errors of query values (empty when a form or a path did not validate)."""
    errors = list(exc.errors())
    return errors if errors and all(e["loc"][0] == "query" for e in errors) else []


def _field(error: dict[str, Any]) -> str:
    return ".".join(str(p) for p in error["loc"][1:]) or "request"


def invalid_query(request: Request, errors: list[dict[str, Any]]) -> tuple[str, str, str]:
    """Return the message of a bad query value, and the link to the same page without the values refused."""
    fields = "; ".join(f"{_field(e)}: {e['msg']} ({e.get('input')!r})" for e in errors)
    bad = {str(e["loc"][1]) for e in errors if len(e["loc"]) > 1}
    kept = [(k, v) for k, v in request.query_params.multi_items() if k not in bad and k != "token"]
    back = request.url.path + (f"?{urlencode(kept)}" if kept else "")
    return f"this address holds a value the page cannot use ({fields})", back, "this page without it"


def invalid_form(request: Request, exc: RequestValidationError) -> tuple[str, str | None, str]:
    """Return the message of a form that did not validate, and the link back to the page that sent it."""
    fields = "; ".join(f"{_field(e)}: {e['msg']}" for e in exc.errors())
    return f"the form is incomplete or invalid ({fields})", referer_path(request), "go back to correct it"
