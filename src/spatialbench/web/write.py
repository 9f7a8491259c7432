"""Pages that write: human-level evaluation, review flags, error annotations (only into the work folder)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from spatialbench.analysis.error_table import read_annotations
from spatialbench.analysis.errors import AnnotationError
from spatialbench.records.flags import append_flag, latest_flags
from spatialbench.records.item import AnswerKind
from spatialbench.runs import RunConfig
from spatialbench.runs.checks import RunFolderError
from spatialbench.web import human
from spatialbench.web.annotations import annotation_file, create_sample, save_annotation
from spatialbench.web.app import page
from spatialbench.web.browse import media_views, serve_state
from spatialbench.web.csrf import check_form_token
from spatialbench.web.error_pages import PageError

router = APIRouter()
REVIEW_PAGE = 100
FORM_TOKEN = [Depends(check_form_token)]  # on every write route: a stale or forged form is 403


def _see(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


@router.get("/human", response_class=HTMLResponse)
def human_start_page(request: Request) -> HTMLResponse:
    """Show the form that starts (or resumes) a human evaluation: name, sample size, seed, task."""
    state = serve_state(request)
    return page(request, "human_start.html.j2", tasks=sorted({i.task for i in state.items}))


@router.post("/human/start", dependencies=FORM_TOKEN)
def human_start(request: Request, name: Annotated[str, Form()], size: Annotated[int, Form()] = 5,
                seed: Annotated[int, Form()] = 0, task: Annotated[list[str] | None, Form()] = None,
                ids: Annotated[str, Form()] = "") -> RedirectResponse:
    """Create the run ``human-NAME``: the chosen ``ids`` (comma-separated), else a seeded random sample.

    The sample is drawn from the items of ``task`` (repeated: of any of them; empty: of every task). An
    existing run keeps its sample. A refused value: 400, a page linking back to the form.
    """
    state = serve_state(request)
    try:
        folder = human.run_folder(state.config.workdir, name)
        chosen = human.chosen_ids(state.items, ids) if ids.strip() else human.sample_ids(
            state.items, size, seed, [t for t in task or () if t])
    except ValueError as exc:
        raise PageError(400, str(exc), "/human", "back to the human evaluation form") from None
    human.start(state.config.workdir, name, state.spec, state.config.data, chosen)
    return _see(f"/human/{folder.name.removeprefix('human-')}")


def _human_config(request: Request, name: str) -> RunConfig:
    state = serve_state(request)
    try:
        folder = human.run_folder(state.config.workdir, name)
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    if not (folder / "config.json").is_file():
        raise PageError(404, f"no human run {name!r}", "/human", "start a human evaluation")
    return human.start(state.config.workdir, name, state.spec, state.config.data, [])


@router.get("/human/{name}", response_class=HTMLResponse)
def human_next(request: Request, name: str) -> HTMLResponse:
    """Show the next unanswered item of the sample (video, question, options or a number), or done."""
    return _human_item(request, name)


def _human_item(request: Request, name: str, refused: str | None = None) -> HTMLResponse:
    state = serve_state(request)
    config = _human_config(request, name)
    done = human.answered(config)
    remaining = [i for i in config.data.ids or () if i not in done and i in state.by_id]
    if not remaining:
        return page(request, "human_done.html.j2", name=name, count=len(done))
    item = state.by_id[remaining[0]]
    state.shown.setdefault((name, item.id), time.monotonic())
    response = page(request, "human_item.html.j2", name=name, item=item, media=media_views(state, item),
                    position=len(done) + 1, total=len(config.data.ids or ()), answered=len(done),
                    numerical=item.answer_kind is AnswerKind.NUMERICAL, refused=refused,
                    pattern=human.COUNT_PATTERN if human.is_count(item) else human.MEASURE_PATTERN,
                    count=human.is_count(item))
    if refused is not None:
        response.status_code = 422
    return response


@router.post("/human/{name}/answer", response_model=None, dependencies=FORM_TOKEN)
def human_answer(request: Request, name: str, item_id: Annotated[str, Form()],
                 answer: Annotated[str, Form()] = "") -> RedirectResponse | HTMLResponse:
    """Store one answer with the seconds since the server first showed the item, re-score, show the next.

    An answer not of the item's kind (:func:`~spatialbench.web.human.refusal`: "about two" for a number)
    is refused: the same item again, with the reason, status 422. The time is the server's
    (``time.monotonic``); an item this server never showed (e.g. after a restart) is stored without a
    latency. No time sent by the browser is used.
    """
    state = serve_state(request)
    config = _human_config(request, name)
    item = state.by_id.get(item_id)
    if item is None or item_id not in (config.data.ids or ()):
        raise HTTPException(400, f"item {item_id!r} is not in this human run's sample")
    why = human.refusal(item, answer)
    if why is not None:
        return _human_item(request, name, why)
    shown = state.shown.pop((name, item_id), None)
    seconds = None if shown is None else time.monotonic() - shown
    human.record(config, state.spec, state.items, item, answer, seconds)
    return _see(f"/human/{name}")


@router.post("/flag", dependencies=FORM_TOKEN)
def flag(request: Request, item_id: Annotated[str, Form()], flag: Annotated[str, Form()] = "",
         note: Annotated[str, Form()] = "", reviewer: Annotated[str, Form()] = "") -> RedirectResponse:
    """Append a review flag (wrong / ambiguous / fine) for an item; back to its page (its query kept).

    No choice made: 422, a page saying to choose one (with a link back to the item).
    """
    state = serve_state(request)
    if item_id not in state.by_id:
        raise HTTPException(404, f"no item {item_id!r}")
    query = request.url.query  # the item page's own (browse's list, runs side by side): back to it as it was
    back = f"/item/{quote(item_id)}" + (f"?{query}" if query else "")
    if not flag:
        raise PageError(422, f"choose wrong, ambiguous or fine before saving the flag of item {item_id!r}",
                        back, f"back to item {item_id}")
    try:
        append_flag(state.flags_file, state.spec.name, item_id, flag, note, reviewer)
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    return _see(back)


@router.get("/review", response_class=HTMLResponse)
def review(request: Request, page_number: int = 0) -> HTMLResponse:
    """Items to review, 100 a page: audit disagreements first, then flagged items, then the rest."""
    state = serve_state(request)
    reasons = state.reasons
    flags = latest_flags(state.flags_file, state.spec.name) if state.flags_file.is_file() else {}
    ordered = sorted(state.items, key=lambda i: (i.id not in reasons, i.id not in flags))
    pages = max(1, -(-len(ordered) // REVIEW_PAGE))
    page_number = min(max(page_number, 0), pages - 1)
    shown = ordered[page_number * REVIEW_PAGE:(page_number + 1) * REVIEW_PAGE]
    return page(request, "review.html.j2", items=shown, reasons=reasons, flags=flags,
                page_number=page_number, pages=pages, total=len(ordered))


def _annotated_run(request: Request, run: str) -> Path:
    chosen = serve_state(request).run(run)
    if chosen is None:
        raise HTTPException(404, f"no run {run!r}")
    return chosen.path


@router.get("/errors", response_class=HTMLResponse)
def errors(request: Request, run: str = "") -> HTMLResponse:
    """Show a run's error sample (response, self-explanation, category boxes) from its annotation file."""
    state = serve_state(request)
    doc = None
    if run:
        path = annotation_file(_annotated_run(request, run))
        try:
            doc = read_annotations(path) if path.is_file() else None
        except AnnotationError as exc:
            raise HTTPException(400, str(exc)) from None
    return page(request, "errors.html.j2", runs=[r.name for r in state.runs()], run=run, doc=doc)


@router.post("/errors/sample", dependencies=FORM_TOKEN)
def sample(request: Request, run: Annotated[str, Form()]) -> RedirectResponse:
    """Create the run's error sample (VSI-Bench App. B.2), as ``spatialbench errors sample RUN`` does."""
    folder = _annotated_run(request, run)
    try:
        create_sample(folder, serve_state(request).items)
    except (RunFolderError, AnnotationError) as exc:
        raise HTTPException(400, str(exc)) from None
    return _see(f"/errors?run={quote(run)}")


@router.post("/errors/annotate", dependencies=FORM_TOKEN)
def annotate(request: Request, run: Annotated[str, Form()], item_id: Annotated[str, Form()],
             categories: Annotated[list[str] | None, Form()] = None,
             note: Annotated[str, Form()] = "") -> RedirectResponse:
    """Save one item's categories and note in the run's annotation file; back to the list."""
    folder = _annotated_run(request, run)
    try:
        save_annotation(folder, item_id, categories or [], note)
    except FileNotFoundError:
        raise HTTPException(400, "no annotation file yet: create the error sample first") from None
    except AnnotationError as exc:
        raise HTTPException(400, str(exc)) from None
    return _see(f"/errors?run={quote(run)}#item-{quote(item_id)}")
