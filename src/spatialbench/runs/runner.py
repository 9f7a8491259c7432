"""The runner: plan → (sample media → build prompt → ask the model → store) per item → score.

Items run concurrently (``config.concurrency``), grouped by media so the frame cache decodes each video
once; the next video decodes while the requests about the one before are in flight, and a video's frames
and encoded images are released after its last item (:mod:`spatialbench.runs.media_feed`). Every outcome
is committed to the store as it completes; an item's media, prompt or model error is recorded against it
and the run goes on. Re-running resumes: items with an ``ok`` row are skipped.

The runner executes a :class:`~spatialbench.runs.prepare.PreparedRun`: everything that can be checked
before the first request was checked once, by :func:`~spatialbench.runs.prepare.prepare`; only the image
limit of the first request is checked here (it needs the back end and decoded frames). One run at a time
holds the output folder (:mod:`spatialbench.runs.lock`). When the back end's circuit breaker opens
(endpoint unreachable from the start) the run stops: items not yet sent get no row, are counted
``not_attempted`` and go out on the next run. :func:`arun` is a coroutine and never starts an event loop
(``spatialbench.run`` does, :mod:`spatialbench.api`); whatever was answered when it is cancelled (Ctrl-C)
is already stored. The runner only ever calls the back end's ``generate()``; baselines (no back end) go
through :mod:`spatialbench.runs.baseline`.
"""

from __future__ import annotations

import asyncio
import logging
import time
import zipfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from pathlib import Path
from typing import Any

from spatialbench.media.cache import FrameCache
from spatialbench.media.errors import MediaError
from spatialbench.media.relevance import ImageTextScorer
from spatialbench.media.sampling import parse_strategy
from spatialbench.media.video import SampledFrames
from spatialbench.models.errors import BackendError, EndpointUnreachableError
from spatialbench.records.item import Item
from spatialbench.records.messages import Request, Response
from spatialbench.records.redaction import redact, secret_values
from spatialbench.runs.baseline import run_baseline
from spatialbench.runs.config import RunConfig
from spatialbench.runs.dialogue import Turns, answer_reader, run_strategy, strategy_key
from spatialbench.runs.heap import frozen_heap
from spatialbench.runs.lock import run_lock
from spatialbench.runs.media_feed import MediaFeed, Verdict
from spatialbench.runs.plan import PlannedItem, data_root, media_order, plan
from spatialbench.runs.preflight import check_image_limit, image_limit
from spatialbench.runs.prepare import PreparedRun
from spatialbench.runs.progress import Progress
from spatialbench.runs.prompt_record import prompt_record
from spatialbench.runs.record import record_run
from spatialbench.runs.store import RunStore, RunStoreError, StoredResult
from spatialbench.runs.summary import STORE_NAME, RunSummary
from spatialbench.scoring.output import write_scores
from spatialbench.scoring.scorer import ScoreResult, score_items

log = logging.getLogger(__name__)

#: the frame caches of a sweep, by data folder and ``aks:N`` scorer model
_SHARED_CACHES: ContextVar[dict[tuple[Path, str | None], FrameCache] | None] = ContextVar(
    "shared_frame_caches", default=None
)


@contextmanager
def shared_frame_caches() -> Iterator[None]:
    """Within the block, runs on one data folder share one frame cache (``spatialbench sweep``'s runs).

    :class:`~spatialbench.media.cache.FrameCache` keys on media, segment, frame strategy and
    ``max_pixels``: a video that several runs sample alike is decoded once for all of them (the first
    run's ``media.frame_cache_mb`` sizes the cache).
    """
    token = _SHARED_CACHES.set({})
    try:
        yield
    finally:
        _SHARED_CACHES.reset(token)


def frame_cache(config: RunConfig, scorer: ImageTextScorer | None = None) -> FrameCache:
    """Return the run's frame cache: its folder's shared one inside :func:`shared_frame_caches`, else new.

    A run with an ``aks:N`` scorer model gets a cache with that scorer: ``scorer`` (the one
    :func:`~spatialbench.runs.prepare.prepare` loaded) or a new
    :class:`~spatialbench.media.relevance.ImageTextScorer` (features in ``RunConfig.aks_features``).
    """
    root = data_root(config.data.path)
    pool = _SHARED_CACHES.get()
    name = (root, config.media.aks_model)
    if pool is not None and name in pool:
        return pool[name]
    if scorer is None and config.media.aks_model is not None:
        scorer = ImageTextScorer(config.media.aks_model, config.aks_features)
    cache = FrameCache(root, max_bytes=config.media.frame_cache_mb * 2**20, scorer=scorer)
    if pool is not None:
        pool[name] = cache
    return cache


class Runner:
    """Executes one :class:`~spatialbench.runs.prepare.PreparedRun` of a model (not a baseline).

    The back end is built here (the prepared run's factory: the given object or the one ``model.name``
    names). ``cache``: a frame cache shared with other runs on the same data folder (default:
    :func:`frame_cache`).
    """

    def __init__(self, prepared: PreparedRun, progress: bool = True, cache: FrameCache | None = None) -> None:
        if prepared.backend is None:
            raise ValueError(f"{prepared.baseline} is a baseline: run it with arun(prepared), not a Runner")
        self.prepared = prepared
        self.spec = prepared.spec
        self.config = config = prepared.config
        self.backend = prepared.backend()
        self.show_progress = progress
        self.out = Path(config.out)
        self.owns_cache = cache is None and _SHARED_CACHES.get() is None  # frames released after use
        self.cache = cache if cache is not None else frame_cache(config, prepared.scorer)
        self.cache.expect_short = self.spec.defaults.frames_ceiling  # ReVSI's budget videos (RunDefaults)
        self._decodes_before: Counter[str] = Counter()  # a shared cache's decodes by earlier runs
        self.strategy = parse_strategy(config.frame_strategy)
        self.builder = prepared.builder
        self.answer_strategy = prepared.strategy  # direct: one request, as before
        self._secrets: list[str] = []
        self.progress: Progress | None = None
        self.stopped: str | None = None

    @property
    def uses_media(self) -> bool:
        """Whether media is decoded and sent (not in blind mode)."""
        return not self.config.prompt.blind

    @property
    def answered(self) -> int:
        """Items answered and stored by this invocation so far."""
        return self.progress.counts.get("ok", 0) if self.progress else 0

    async def run(self) -> RunSummary:
        """Run every selected item not yet answered, then score; returns the summary.

        Raises:
            RunSetupError: an image limit no request can meet (:mod:`~spatialbench.runs.preflight`), a
                store of another run or a damaged one; RunLockedError: another run holds the output folder.
        """
        self._decodes_before = Counter(self.cache.decodes)
        await self._check_image_limit()
        with run_lock(self.out):
            return await self._run_locked()

    async def _check_image_limit(self) -> None:
        """Refuse a first request with more images than the back end takes (its frames stay cached)."""
        selected = self.prepared.selected
        if not self.uses_media or not selected:
            return
        first = min(selected, key=lambda item: tuple(ref.path for ref in item.media))  # sent first
        try:
            request = self.builder.build(first, await self._media(first))
        except (MediaError, ValueError):
            return  # that item's own error, recorded when it runs
        check_image_limit(request, *image_limit(self.backend, self.config.model))

    async def _run_locked(self) -> RunSummary:
        self._secrets = secret_values()
        selected = list(self.prepared.selected)
        planned = await asyncio.to_thread(plan, selected, self.config, self.builder, self.uses_media)
        if self.config.strategy.name != "direct":  # a strategy's answers never mix with direct ones
            planned = [replace(p, key=strategy_key(p.key, self.answer_strategy)) for p in planned]
        store = RunStore(self.out / STORE_NAME, self._secrets)
        try:
            record_run(store, self.config, self.backend.describe(), self.builder.fingerprint(), self._secrets)
            done = store.done_keys()
            pending = media_order([p for p in planned if p.key not in done])
            title = redact(f"{self.config.data.benchmark} × {self.config.model.name}", self._secrets)
            progress = self.progress = Progress(len(pending), self.show_progress, title)
            feed = MediaFeed(self.cache, self.strategy, self.config.media.max_pixels,
                             [p.item for p in pending] if self.uses_media else [], self.owns_cache,
                             self.backend.prepare_images)
            try:
                started = time.perf_counter()
                with frozen_heap():
                    await self._execute(pending, store, progress, feed)
                request_seconds = time.perf_counter() - started
            finally:
                feed.close()
                progress.close()
                await self.backend.aclose()
            summary = RunSummary(
                len(selected),
                len(planned) - len(pending),
                dict(progress.counts),
                dict(self.cache.decodes - self._decodes_before),
                [str(e) for e in self.prepared.loaded.errors],
                request_seconds,
            )
            rows = store.results([p.key for p in planned])
            summary.stopped = self.stopped
            summary.unanswered = _unanswered(planned, rows)
            summary.usage = store.usage([p.key for p in planned])
            summary.truncated = store.truncated([p.key for p in planned])
            summary.score = self._score(rows, selected)
        finally:
            store.close()
        return summary

    async def _execute(
        self, pending: list[PlannedItem], store: RunStore, progress: Progress, feed: MediaFeed
    ) -> None:
        """Answer ``pending``; the first failed store write stops dispatching, in-flight items still try.

        Frames come from ``feed`` (prepared ahead, released once an item is the last of its media to
        finish). An item holds its slot until its answer is in; its answerability, worked out while the
        request was in flight, is awaited and the row stored after the slot is free (issue 25: items
        of the first video waiting for its visibility held every slot, and the next video's waited).

        Raises:
            RunStoreError: a write failed (full disk); the message adds how many answers received in this
                run could not be stored (they are asked again on the next run).
        """
        # FIFO slots: items start in media order. Twice the request bound, so items waiting out a retry
        # backoff do not idle the connection slots (the back end bounds requests in flight itself).
        slots = asyncio.Semaphore(2 * self.config.model.concurrency)
        failure: list[RunStoreError] = []
        lost = 0

        async def one(planned: PlannedItem) -> None:
            nonlocal lost
            sent = None
            try:
                async with slots:
                    sent = await self._attempt(planned, store, feed, failure)
                    # the request that took the back end's freed slot goes on the wire before this
                    # answer's store write (issue 25); the item taking this runner slot waits for the
                    # write, so a failed one still stops dispatching
                    await asyncio.sleep(0)
                if sent is None:
                    progress.update("not_attempted", None)
                    return
                prompt, response, error, aside, latency = sent
                await _settle(prompt, aside)
                status = store.put(planned.key, planned.item.id, prompt, response, error, latency)
            except RunStoreError as exc:  # stop sending; answers still in flight try to store
                failure.append(exc)
                lost += sent is not None and sent[1] is not None
                progress.update("not_attempted", None)
            else:
                progress.update(status, response)
            finally:
                feed.done(planned.item)

        await asyncio.gather(*(one(p) for p in pending))
        if failure:
            unstored = f"; {lost} answer(s) received in this run could not be stored" if lost else ""
            raise RunStoreError(f"{failure[0]}{unstored}") from None

    async def _attempt(
        self, planned: PlannedItem, store: RunStore, feed: MediaFeed, failure: list[RunStoreError]
    ) -> _Sent | None:
        """Ask about ``planned`` unless the run stopped; returns what to store and the request's seconds.

        Raises:
            RunStoreError: a strategy's turn could not be stored.
        """
        if self.stopped is not None or failure:
            return None
        started = time.perf_counter()
        try:
            prompt, response, error, aside = await self._answer(planned, store, feed)
        except EndpointUnreachableError as exc:  # stop: leave this and later items unsent
            self.stopped = redact(str(exc), self._secrets)
            return None
        return prompt, response, error, aside, time.perf_counter() - started

    async def _answer(
        self, planned: PlannedItem, store: RunStore, feed: MediaFeed
    ) -> tuple[dict[str, Any], Response | None, str | None, asyncio.Future[Verdict] | None]:
        """Ask about one item; errors of media, prompt or model come back as text, never raised.

        Also returns the item's answerability (synthetic scenes: were the question's objects in the
        frames sent?), started beside the request, for :func:`_settle` to add to the prompt record.
        """
        prompt: dict[str, Any] = {}
        try:
            media = await feed.frames(planned.item) if self.uses_media else []
            # a reasoning strategy starts from the request without its answer-directly post-prompt (B.3)
            build = self.builder.build_reasoning if self.answer_strategy.reasons else self.builder.build
            request = replace(build(planned.item, media), settings=planned.settings)
            prompt = prompt_record(request, media, planned.item)
        # ValueError: an item the prompt builder refuses (TemplateError is one)
        except (MediaError, BackendError, ValueError) as exc:
            return prompt, None, f"{type(exc).__name__}: {exc}", None
        aside = asyncio.ensure_future(feed.answerability(planned.item, media)) if media else None
        if self.config.strategy.name != "direct":
            prompt["strategy"] = self.config.strategy.model_dump(mode="json")
        try:
            return prompt, await self._ask(planned, request, store), None, aside
        except (EndpointUnreachableError, RunStoreError):  # RunStoreError is a ValueError: not the item's
            if aside is not None:
                aside.cancel()
            raise
        except (MediaError, BackendError, ValueError) as exc:
            return prompt, None, f"{type(exc).__name__}: {exc}", aside

    async def _ask(self, planned: PlannedItem, request: Request, store: RunStore) -> Response:
        """Send ``request`` (the direct strategy) or run the item's strategy from it."""
        if self.config.strategy.name == "direct":
            return await self.backend.generate(request)
        turns = Turns(self.backend, store, planned.key, planned.item.id)
        read = answer_reader(self.spec.scoring, self.config.scoring.extract, planned.item)
        return await run_strategy(self.answer_strategy, request, planned.item, turns, read)

    async def _media(self, item: Item) -> list[SampledFrames]:
        """Return the sampled frames of each media of ``item`` (decoding runs in a worker thread)."""
        max_pixels = self.config.media.max_pixels
        cached = [self.cache.peek(ref, self.strategy, max_pixels, item.question) for ref in item.media]
        if all(frames is not None for frames in cached):
            return cached  # type: ignore[return-value]
        return await asyncio.to_thread(
            lambda: [self.cache.get(ref, self.strategy, max_pixels, item.question) for ref in item.media]
        )

    def _score(self, rows: list[StoredResult], selected: list[Item]) -> ScoreResult | None:
        if not selected:
            return None
        responses = {r.item_id: r.response for r in rows if r.status == "ok"}
        scoring = self.config.scoring
        result = score_items(selected, responses, self.spec.scoring, extract=scoring.extract, mra=scoring.mra)
        write_scores(result, self.out)
        return result


_Sent = tuple[dict[str, Any], Response | None, str | None, "asyncio.Future[Verdict] | None", float]


async def _settle(prompt: dict[str, Any], aside: asyncio.Future[Verdict] | None) -> None:
    """Put the item's answerability in its prompt record, where it always stood (before ``strategy``).

    A visibility file that cannot be read leaves the item without a verdict (a warning says which).
    """
    try:
        found = await aside if aside is not None else None
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        log.warning("answerability not recorded: %s", exc)
        return
    if found is None:
        return
    strategy = prompt.pop("strategy", None)
    prompt["answerability"] = found
    if strategy is not None:
        prompt["strategy"] = strategy


def _unanswered(planned: list[PlannedItem], rows: list[StoredResult]) -> list[tuple[str, str, str | None]]:
    """(item id, status, error) of items without an ``ok`` row; items without any row are not attempted."""
    by_key = {r.request_key: r for r in rows}
    missing = [(p.item.id, "not attempted", None) for p in planned if p.key not in by_key]
    return [(r.item_id, r.status, r.error) for r in rows if r.status != "ok"] + missing


async def arun(prepared: PreparedRun, progress: bool = True, cache: FrameCache | None = None) -> RunSummary:
    """Execute ``prepared`` to completion; returns its summary.

    ``cache``: a frame cache shared with other runs on the same data folder (default: :func:`frame_cache`,
    the shared one inside :func:`shared_frame_caches`, else a new one). A baseline run is scored as
    ``spatialbench baseline`` scores it (:func:`~spatialbench.runs.baseline.run_baseline`, in a worker
    thread). A synchronous caller uses ``spatialbench.run`` (:mod:`spatialbench.api`), which also turns
    Ctrl-C into :class:`~spatialbench.runs.summary.RunInterrupted`.

    Raises:
        RunSetupError (and subclasses), BackendError: the run cannot start (nothing sent).
        asyncio.CancelledError: cancelled; everything answered so far is stored.
    """
    if prepared.backend is None:
        return await asyncio.to_thread(run_baseline, prepared)
    return await Runner(prepared, progress, cache).run()
