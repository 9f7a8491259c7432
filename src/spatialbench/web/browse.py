"""Read-only pages: browse and filter items, one item across runs, media files, assets, the score table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote, urlencode

import pandas as pd
from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from spatialbench.records.flags import EXCLUDED, latest_flags
from spatialbench.records.item import Item, MediaKind, MediaRef
from spatialbench.runs.store.reader import StoredRow
from spatialbench.runs.transcript import data_relative, settings_line
from spatialbench.scoring.uncertainty import table_ci
from spatialbench.views.tables import table_css, table_script
from spatialbench.views.transcript import stylesheet
from spatialbench.web.app import STATIC, page
from spatialbench.web.listing import COLUMNS, FILTERS, Listing, listing_query, value_of
from spatialbench.web.runs import ServedRun
from spatialbench.web.security import UnsafePathError, safe_file
from spatialbench.web.state import ServeState
from spatialbench.web.transcripts import transcript_view

router = APIRouter()
PAGE_SIZE = 100
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")
ICON = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
        b'fill="#335"/><circle cx="8" cy="8" r="4" fill="#fc6"/></svg>')


def serve_state(request: Request) -> ServeState:
    """Return the app's :class:`ServeState`."""
    return request.app.state.serve  # type: ignore[no-any-return]


ListingQuery = Annotated[Listing, Depends(listing_query)]


@router.get("/", response_class=HTMLResponse)
def browse(request: Request, listing: ListingQuery, page_number: int = 0) -> HTMLResponse:
    """List every item that passes the filters and the words of ``q``, sorted by ``sort``, 100 a page.

    Filters, search and sort apply to all items before the page is cut (:mod:`spatialbench.web.listing`;
    a filter repeated keeps any of its values); ``page_number`` (0-based) is clamped to the pages there are.
    """
    state = serve_state(request)
    runs = state.runs()
    items = listing.rows(state.items, runs)
    pages = -(-len(items) // PAGE_SIZE)
    page_number = min(max(page_number, 0), max(pages - 1, 0))
    shown = items[page_number * PAGE_SIZE:(page_number + 1) * PAGE_SIZE]
    options = {name: sorted({value_of(i, name) for i in state.items} - {""}) for name in FILTERS}
    columns = [key for key in COLUMNS if key != "scene" or options["scene"]]  # no scene in any item: none
    headers = [listing.header(key, key) for key in columns]
    headers += [listing.header(f"run:{r.name}", r.name) for r in runs]
    return page(request, "browse.html.j2", items=shown, total=len(items), options=options, runs=runs,
                page_number=page_number, pages=pages, item_query=_query(listing.pairs()), headers=headers,
                columns=columns, listing=listing, load_errors=state.load_errors)


def _query(pairs: list[tuple[str, str]]) -> str:
    """``?a=1&b=2``, or nothing for no parameters."""
    return "?" + urlencode(pairs) if pairs else ""


def media_url(state: ServeState, ref: MediaRef, name: str | None = None) -> str | None:
    """Return the URL of a media file under ``/media`` (None when the file lies outside the data folder)."""
    path = Path(ref.path) if name is None else Path(ref.path) / name
    if path.is_absolute():
        try:
            path = path.relative_to(state.root.resolve())
        except ValueError:
            return None
    return "/media/" + quote(path.as_posix())


def media_views(state: ServeState, item: Item) -> list[dict[str, Any]]:
    """Return each media's kind, path, name, ``/media`` URLs (16 frames at most) and labels for a page.

    A frame is labelled by its file name without suffix (``frame0``), as ReMindView's questions name them.
    """
    views = []
    for ref in item.media:
        names = list(ref.frames[:: max(1, len(ref.frames) // 16)]) if ref.kind is MediaKind.FRAMES else [None]
        labels = [Path(n).stem if n else Path(ref.path).stem for n in names]
        views.append({"kind": ref.kind.value, "path": ref.path, "name": ref.name, "labels": labels,
                      "urls": [media_url(state, ref, n) for n in names]})
    return views


def _answer(state: ServeState, run: ServedRun, item_id: str) -> dict[str, Any]:
    stored = run.stored(item_id) or StoredRow(item_id, "", None)
    media = [{**m, "video": _sent_video(state.root, m)}
             for m in stored.prompt.get("media", []) if isinstance(m, dict)]
    own, shown = state.item_of(run, item_id), state.by_id.get(item_id)
    truth = own.ground_truth if own and shown and own.ground_truth != shown.ground_truth else None
    return {"run": run, "stored": stored, "score": run.scores.get(item_id), "media": media, "truth": truth,
            "settings": settings_line(run.folder), "transcript": transcript_view(state.root, run, item_id)}


def _sent_video(root: Path, media: dict[str, Any]) -> bool:
    """Whether a stored media record is of a video (seek buttons), not of image files or a frame folder."""
    source = str(media.get("source", ""))
    inside = data_relative(root, source)
    folder = inside is not None and (root / inside).is_dir()
    return not (source.lower().endswith(IMAGE_SUFFIXES) or "files" in media or folder)


def heading(state: ServeState, item: Item) -> str:
    """Return an item's heading in words: its task (the benchmark's words), scene and dataset when known."""
    parts = [state.spec.task_title(item.task), item.scene_id, item.dataset]
    return " · ".join(str(p) for p in parts if p not in (None, "", "None"))


@router.get("/item/{item_id}", response_class=HTMLResponse)
def item_page(request: Request, item_id: str, listing: ListingQuery,
              runs: Annotated[list[str] | None, Query()] = None) -> HTMLResponse:
    """Show one item: video or frames, question, options, truth, flag form, and each run's request and answer.

    ``runs`` (repeated, or comma-separated) shows only those runs, side by side; all runs by default.
    Browse's parameters (``q``, ``sort``, filters) choose the list previous / next walk and the browse
    link returns to (its page holding this item); an item outside that list walks the benchmark's order.
    """
    state = serve_state(request)
    item = state.by_id.get(item_id)
    if item is None:
        raise HTTPException(404, f"no item {item_id!r} in {state.spec.name}")
    wanted = [name for value in runs or [] for name in value.split(",") if name]
    every = state.runs()
    chosen = [r for r in every if not wanted or r.name in wanted]
    flags = latest_flags(state.flags_file, state.spec.name) if state.flags_file.is_file() else {}
    walk = listing.rows(state.items, every)
    if item not in walk:
        walk, listing = list(state.items), listing_query()
    k = walk.index(item)
    back = listing.pairs(**({"page_number": k // PAGE_SIZE} if k >= PAGE_SIZE else {}))
    query = _query(listing.pairs() + [("runs", n) for n in wanted])
    return page(request, "item.html.j2", item=item, media=media_views(state, item),
                heading=heading(state, item), answers=[_answer(state, r, item.id) for r in chosen],
                flag=flags.get(item.id), listing_pairs=listing.pairs(), browse_href="/" + _query(back),
                all_runs=[r.name for r in every], shown_runs=wanted, position=k + 1, total=len(walk),
                prev_id=walk[k - 1].id if k > 0 else None, query=query,
                next_id=walk[k + 1].id if k + 1 < len(walk) else None)


@router.get("/media/{path:path}")
def media(request: Request, path: str) -> FileResponse:
    """Serve a file of the benchmark folder (404 outside it; range requests answered for seeking)."""
    return _file(serve_state(request).root, path)


@router.get("/favicon.ico")
def favicon() -> Response:
    """Serve the page icon (a 16 x 16 SVG; every page links it) so browsers get no 404."""
    return Response(ICON, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


@router.get("/transcript.css")
def transcript_css() -> Response:
    """Serve the transcript fragment's style (shared with the static report: ``views/data``)."""
    return Response(stylesheet(), media_type="text/css", headers={"Cache-Control": "max-age=3600"})


@router.get("/tables.css")
def tables_css() -> Response:
    """Serve the item tables' style (score colours, sort arrows; shared with the report: ``views/data``)."""
    return Response(table_css(), media_type="text/css", headers={"Cache-Control": "max-age=3600"})


@router.get("/tables.js")
def tables_js() -> Response:
    """Serve the item tables' sort / filter script (shared with the report: ``views/data``)."""
    return Response(table_script(), media_type="text/javascript", headers={"Cache-Control": "max-age=3600"})


@router.get("/static/{path:path}")
def static(path: str) -> FileResponse:
    """Serve an asset shipped with the package (``web/static``)."""
    return _file(STATIC, path)


def _file(root: Path, path: str) -> FileResponse:
    try:
        return FileResponse(safe_file(root, path))
    except UnsafePathError as exc:
        raise HTTPException(404, f"not served: {exc}") from None
    except FileNotFoundError:
        raise HTTPException(404, "no such file") from None


def score_rows(state: ServeState, run: ServedRun, excluded: set[str]) -> dict[str, Any]:
    """Return one row of the score table: Avg. and the benchmark's columns over the run's scored items."""
    frame = pd.DataFrame([{"id": i, "task": state.by_id[i].task, "dataset": state.by_id[i].dataset,
                           "scene_id": state.by_id[i].scene_id,
                           "score": float(s["score"]) if s.get("score") is not None else float("nan"),
                           "answered": s.get("extracted") is not None}
                          for i, s in run.scores.items() if i in state.by_id and i not in excluded])
    if frame.empty:
        return {"run": run, "n": 0, "average": None, "cells": {}, "ci": {}, "counts": {},
                "progress": _progress(run, 0)}
    table = state.spec.scoring.table(frame)
    ci = table_ci(table)  # scene-clustered bootstrap 95 % intervals (scoring/uncertainty.py)
    return {"run": run, "n": len(frame), "average": table.average, "progress": _progress(run, len(frame)),
            "cells": {c.group: c.accuracy for c in table.cells},
            "ci": {"Avg.": ci.get("overall"), **{c.group: ci.get(c.key) for c in table.cells}},
            "counts": {c.group: c.n for c in table.cells}}


def _progress(run: ServedRun, answered: int) -> str | None:
    """``in progress: k of n`` for a human run that has not answered its whole sample, else None."""
    sample = run.folder.selection.ids
    if run.folder.kind != "human" or sample is None or answered >= len(sample):
        return None
    return f"in progress: {answered} of {len(sample)}"


@router.get("/scores", response_class=HTMLResponse)
def scores(request: Request, exclude: int = 0) -> HTMLResponse:
    """Show every run's Avg. and columns; ``exclude=1`` leaves out items flagged wrong or ambiguous."""
    state = serve_state(request)
    flags = latest_flags(state.flags_file, state.spec.name) if state.flags_file.is_file() else {}
    excluded = {i for i, f in flags.items() if f["flag"] in EXCLUDED} if exclude else set()
    rows = [score_rows(state, run, excluded) for run in state.runs()]
    columns = list(dict.fromkeys(c for row in rows for c in row["cells"]))
    return page(request, "scores.html.j2", rows=rows, columns=columns, exclude=exclude,
                excluded=sorted(excluded), mismatched=state.mismatched_runs())
