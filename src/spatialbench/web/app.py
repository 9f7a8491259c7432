"""The FastAPI application of ``spatialbench serve`` (server-rendered pages; assets ship in the package).

Routes (all behind the token, :mod:`spatialbench.web.security`): ``/`` browse and filter items,
``/item/{id}`` one item with its video and every run's request and answer (``?runs=a,b`` side by side),
``/media/{path}`` files of the benchmark folder (HTTP range requests, so the video seeks), ``/static/...``,
``/scores`` the score table of every run (human runs included; ``?exclude=1`` drops flagged items),
``/human`` human-level evaluation, ``/review`` and ``POST /flag`` review flags, ``/errors`` error
annotation, ``/favicon.ico``. Nothing is fetched from the network: no CDN, no external font or script.
Errors of form posts (and of requests that accept ``text/html``) are a small HTML page with the message
and the status code; other callers get FastAPI's ``{"detail": ...}`` JSON.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler, request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.templating import Jinja2Templates

from spatialbench.views.tables import score_class
from spatialbench.web.csrf import csrf_middleware, form_token, new_form_secret
from spatialbench.web.error_pages import PageError, invalid_form, invalid_query, query_errors
from spatialbench.web.security import token_middleware
from spatialbench.web.state import ServeConfig, ServeState

STATIC = Path(__file__).parent / "static"


@cache
def templates() -> Jinja2Templates:
    """Return the page templates (package data ``web/templates``, autoescaped, undefined names raise)."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("spatialbench.web", "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["score_class"] = score_class
    return Jinja2Templates(env=env)


def page(request: Request, template: str, /, **context: Any) -> HTMLResponse:
    """Render ``template`` for ``request`` (benchmark name, form token, ``task_title`` in every context)."""
    state: ServeState = request.app.state.serve
    context = {"benchmark": state.spec.name, "csrf_token": form_token(request),
               "task_title": state.spec.task_title, **context}
    return templates().TemplateResponse(request, template, context)


#: addresses of files, not pages: their errors stay FastAPI's JSON for every caller
FILE_PREFIXES = ("/media/", "/static/")


def _wants_html(request: Request) -> bool:
    """Whether an error is the HTML page: a form post, asked for, or a page not asked as JSON (curl)."""
    accept = request.headers.get("accept", "")
    page_address = request.method == "GET" and not request.url.path.startswith(FILE_PREFIXES)
    return request.method == "POST" or "text/html" in accept or (page_address and "json" not in accept)


def _error_page(request: Request, status: int, message: str, back: str | None = None,
                back_text: str = "") -> HTMLResponse:
    return templates().TemplateResponse(request, "error.html.j2", {
        "benchmark": request.app.state.serve.spec.name, "status": status, "message": message,
        "back": back, "back_text": back_text}, status_code=status)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    if not _wants_html(request):
        return await http_exception_handler(request, exc)
    if isinstance(exc, PageError):
        return _error_page(request, exc.status_code, str(exc.detail), exc.back, exc.back_text)
    return _error_page(request, exc.status_code, str(exc.detail))


async def _invalid_request(request: Request, exc: RequestValidationError) -> Response:
    errors = query_errors(exc)
    if request.method == "GET" and errors:  # an address with a bad value is a page address: its page
        return _error_page(request, 422, *invalid_query(request, errors))
    if not _wants_html(request):
        return await request_validation_exception_handler(request, exc)
    return _error_page(request, 422, *invalid_form(request, exc))


def create_app(config: ServeConfig) -> FastAPI:
    """Build the application for ``config`` (the benchmark is loaded here, once).

    Raises:
        ValueError / FileNotFoundError: the benchmark data cannot be loaded.
    """
    from spatialbench.web import browse, write

    app = FastAPI(title="spatialbench", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.serve = ServeState(config)
    app.state.form_secret = new_form_secret()
    app.middleware("http")(token_middleware(config.token))
    app.middleware("http")(csrf_middleware)  # added last, so it runs first: a forged write never runs
    app.exception_handler(HTTPException)(_http_error)
    app.exception_handler(RequestValidationError)(_invalid_request)
    app.include_router(browse.router)
    app.include_router(write.router)
    return app
