"""The runner: plan → (sample media → build prompt → ask the model → store) per item → score.

Items run concurrently (``config.concurrency``), grouped by media so the frame cache decodes each video
once. Every outcome is committed to the store as it completes; an item's media, prompt or model error is
recorded against it and the run goes on. Re-running resumes: items with an ``ok`` row are skipped.

Everything that can be checked is checked before the first request (:mod:`spatialbench.runs.checks`);
one run at a time holds the output folder (:mod:`spatialbench.runs.lock`). When the back end's circuit
breaker opens (endpoint unreachable from the start) the run stops: items not yet sent get no row, are
counted ``not_attempted`` and go out on the next run. Ctrl-C raises :class:`RunInterrupted` from
:func:`run`; whatever was answered is already stored.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.registry import load_items
from spatialbench.media.cache import FrameCache
from spatialbench.media.errors import MediaError
from spatialbench.media.sampling import parse_strategy
from spatialbench.media.video import SampledFrames
from spatialbench.models.base import Backend
from spatialbench.models.chance import ItemBackend
from spatialbench.models.errors import BackendError, EndpointUnreachableError
from spatialbench.models.resolve import load_backend, model_family
from spatialbench.prompting.builders import PromptBuilder, get_prompt_builder
from spatialbench.prompting.config import ModelFamily
from spatialbench.records.messages import ImagePart, Request, Response
from spatialbench.records.redaction import redact, secret_values
from spatialbench.records.rows import LoadedItems
from spatialbench.runs.checks import RunSetupError, check_config
from spatialbench.runs.config import RunConfig
from spatialbench.runs.defaults import apply_benchmark_defaults
from spatialbench.runs.environment import environment
from spatialbench.runs.lock import run_lock
from spatialbench.runs.plan import PlannedItem, data_root, media_order, plan, select_items
from spatialbench.runs.progress import Progress
from spatialbench.runs.store import RunStore, StoredResult

STORE_NAME = "run.sqlite"


@dataclass
class RunSummary:
    """What a run did: counts, per-video decode counts, load errors and the score result (if scored)."""

    selected: int
    already_done: int
    counts: dict[str, int]
    decodes: dict[str, int]
    load_errors: list[str] = field(default_factory=list)
    request_seconds: float = 0.0  # wall time of the request phase (media, prompts, model calls, store)
    unanswered: list[tuple[str, str, str | None]] = field(default_factory=list)  # (item id, status, error)
    score: Any = None
    stopped: str | None = None  # why the run stopped before every item was tried (circuit breaker)


class RunInterrupted(Exception):
    """Ctrl-C during a run; ``answered`` items were answered and stored by this invocation."""

    def __init__(self, answered: int) -> None:
        super().__init__(f"interrupted; {answered} answered and stored")
        self.answered = answered


def _prompt_record(request: Request, media: list[SampledFrames]) -> dict[str, Any]:
    """Return the request as stored: text verbatim, images by position; media by source and frame numbers."""
    parts: list[Any] = []
    image = 0
    for part in request.parts:
        if isinstance(part, ImagePart):
            parts.append({"image": image, "label": part.label, "shape": list(part.pixels.shape)})
            image += 1
        else:
            parts.append(part.text)
    return {
        "system": request.system,
        "parts": parts,
        "media": [
            {"source": m.source, "frames": m.indices.tolist(), "timestamps": m.timestamps.tolist()}
            for m in media
        ],
        "settings": asdict(request.settings),
    }


class Runner:
    """Runs one :class:`RunConfig`; ``backend`` may be given (tests, notebooks) instead of built by name."""

    def __init__(self, config: RunConfig, backend: Backend | None = None, progress: bool = True) -> None:
        config = resolve_config(config)
        check_config(config)
        self.config = config
        self.backend = backend or load_backend(config.model, api=config.api_settings(), seed=config.seed)
        self.show_progress = progress
        self.out = Path(config.out)
        self.cache = FrameCache(data_root(config.data), max_bytes=config.frame_cache_mb * 2**20)
        self.strategy = parse_strategy(config.frame_strategy)
        self.builder: PromptBuilder = get_prompt_builder(config.benchmark, config.prompt)
        self._secrets: list[str] = []
        self.progress: Progress | None = None
        self.stopped: str | None = None

    @property
    def uses_media(self) -> bool:
        """Whether media is decoded and sent (not in blind mode, not for item back ends)."""
        return not self.config.prompt.blind and not isinstance(self.backend, ItemBackend)

    @property
    def answered(self) -> int:
        """Items answered and stored by this invocation so far (including ``not_applicable``)."""
        counts = self.progress.counts if self.progress else {}
        return counts.get("ok", 0) + counts.get("not_applicable", 0)

    async def run(self) -> RunSummary:
        """Run every selected item not yet answered, then score; returns the summary.

        Raises:
            RunSetupError: no items to run (empty or unreadable annotations); RunLockedError: another run
                holds the output folder.
        """
        loaded = self._load()  # before the lock: unreadable data leaves nothing in the output folder
        with run_lock(self.out):
            return await self._run_locked(loaded)

    def _load(self) -> LoadedItems:
        """Load the benchmark; an unreadable annotation file or no items is one RunSetupError naming it."""
        data = self.config.data
        try:
            loaded = load_items(self.config.benchmark, data, **self.config.benchmark_options)
        except (ValueError, OSError) as exc:  # AnnotationFileError, FileNotFoundError, bad option value
            message = str(exc)
            raise RunSetupError(message if data in message else f"{data}: {message}") from None
        if not loaded:
            errors = [str(e) for e in getattr(loaded, "errors", [])]
            unread = f"; {len(errors)} row(s) could not be read, first: {errors[0]}" if errors else ""
            raise RunSetupError(f"no items in {data}{unread}")
        return loaded

    async def _run_locked(self, loaded: LoadedItems) -> RunSummary:
        self._secrets = secret_values()
        selected = select_items(loaded, self.config.ids, self.config.limit)
        planned = await asyncio.to_thread(plan, selected, self.config, self.builder, self.uses_media)
        store = RunStore(self.out / STORE_NAME, self._secrets)
        try:
            self._record(store)
            done = store.done_keys()
            pending = media_order([p for p in planned if p.key not in done])
            if isinstance(self.backend, ItemBackend):
                self.backend.prepare(loaded)
            progress = self.progress = Progress(
                len(pending), self.show_progress, f"{self.config.benchmark} × {self.config.model}"
            )
            try:
                started = time.perf_counter()
                await self._execute(pending, store, progress)
                request_seconds = time.perf_counter() - started
            finally:
                progress.close()
                await self.backend.aclose()
            summary = RunSummary(
                len(selected),
                len(planned) - len(pending),
                dict(progress.counts),
                dict(self.cache.decodes),
                [str(e) for e in getattr(loaded, "errors", [])],
                request_seconds,
            )
            rows = store.results([p.key for p in planned])
            summary.stopped = self.stopped
            summary.unanswered = _unanswered(planned, rows)
            summary.score = self._score(rows, selected)
        finally:
            store.close()
        return summary

    def _record(self, store: RunStore) -> None:
        """Write config, package versions and back-end settings (redacted) to the store and config.json."""
        record = {
            "config": self.config.model_dump(mode="json"),
            "environment": environment(),
            "backend": self.backend.describe(),
            "prompt": self.builder.fingerprint(),
        }
        record = json.loads(redact(json.dumps(record), self._secrets))  # describe() may hold a URL
        store.record_invocation(record["config"], record["environment"], record["backend"])
        (self.out / "config.json").write_text(json.dumps(record, indent=2) + "\n")

    async def _execute(self, pending: list[PlannedItem], store: RunStore, progress: Progress) -> None:
        # FIFO slots: items start in media order. Twice the request bound, so items waiting out a retry
        # backoff do not idle the connection slots (the back end bounds requests in flight itself).
        slots = asyncio.Semaphore(2 * self.config.concurrency)

        async def one(planned: PlannedItem) -> None:
            async with slots:
                if self.stopped is None:
                    started = time.perf_counter()
                    try:
                        prompt, response, error = await self._answer(planned)
                    except EndpointUnreachableError as exc:  # stop: leave this and later items unsent
                        self.stopped = redact(str(exc), self._secrets)
                    else:
                        latency = time.perf_counter() - started
                        status = store.put(planned.key, planned.item.id, prompt, response, error, latency)
                        progress.update(_outcome(status, response), response)
                        return
                progress.update("not_attempted", None)

        await asyncio.gather(*(one(p) for p in pending))

    async def _answer(self, planned: PlannedItem) -> tuple[dict[str, Any], Response | None, str | None]:
        """Ask about one item; errors of media, prompt or model come back as text, never raised."""
        item, prompt = planned.item, {"item_backend": True}
        try:
            if isinstance(self.backend, ItemBackend):
                return prompt, self.backend.answer(item), None
            media = await self._media(item) if self.uses_media else []
            request = replace(self.builder.build(item, media), settings=planned.settings)
            prompt = _prompt_record(request, media)
            return prompt, await self.backend.generate(request), None
        except EndpointUnreachableError:
            raise
        # ValueError: an item the prompt builder refuses (TemplateError is one)
        except (MediaError, BackendError, ValueError) as exc:
            return prompt, None, f"{type(exc).__name__}: {exc}"

    async def _media(self, item: Any) -> list[SampledFrames]:
        """Return the sampled frames of each media of ``item`` (decoding runs in a worker thread)."""
        cached = [self.cache.peek(ref, self.strategy, self.config.max_pixels) for ref in item.media]
        if all(frames is not None for frames in cached):
            return cached  # type: ignore[return-value]
        return await asyncio.to_thread(
            lambda: [self.cache.get(ref, self.strategy, self.config.max_pixels) for ref in item.media]
        )

    def _score(self, rows: list[StoredResult], selected: list[Any]) -> Any:
        from spatialbench.scoring import score_items, write_scores
        from spatialbench.scoring.baselines import BASELINES

        responses = {r.item_id: r.response for r in rows if r.status == "ok"}
        if not selected:
            return None
        baseline = getattr(self.backend, "baseline", None)
        if baseline is not None:  # the same table as `spatialbench baseline` (N/A items left out)
            result = BASELINES.get(baseline)(selected, benchmark=self.config.benchmark, mra=self.config.mra)
            write_scores(result, self.out)
            return result
        result = score_items(
            selected,
            responses,
            benchmark=self.config.benchmark,
            extract=self.config.extract,
            mra=self.config.mra,
        )
        write_scores(result, self.out)
        return result


def _outcome(status: str, response: Response | None) -> str:
    """Progress outcome: an ``ok`` row the back end marked ``no_answer_expected`` is ``not_applicable``."""
    if status == "ok" and response is not None and (response.raw or {}).get("no_answer_expected"):
        return "not_applicable"
    return status


def _unanswered(planned: list[PlannedItem], rows: list[StoredResult]) -> list[tuple[str, str, str | None]]:
    """(item id, status, error) of items without an ``ok`` row; items without any row are not attempted."""
    by_key = {r.request_key: r for r in rows}
    missing = [(p.item.id, "not attempted", None) for p in planned if p.key not in by_key]
    return [(r.item_id, r.status, r.error) for r in rows if r.status != "ok"] + missing


def resolve_config(config: RunConfig) -> RunConfig:
    """Fill settings left to defaults: the benchmark's, and the model family (Table 9 prompts).

    The benchmark's frames, answer budget and loader options come from
    :func:`~spatialbench.runs.defaults.apply_benchmark_defaults`.

    Raises:
        RunSetupError: a frame strategy that conflicts with a frame-choosing benchmark option.
    """
    config, _ = apply_benchmark_defaults(config)
    if config.prompt.model_family is not None:
        return config
    prompt = config.prompt.model_copy(update={"model_family": ModelFamily(model_family(config.model))})
    return config.model_copy(update={"prompt": prompt})


def run(config: RunConfig, backend: Backend | None = None, progress: bool = True) -> RunSummary:
    """Resolve ``config`` and run it to completion (blocking).

    Raises:
        RunSetupError (and subclasses), BackendError, UnknownNameError: the run cannot start.
        RunInterrupted: Ctrl-C; everything answered so far is stored.
    """
    runner = Runner(config, backend, progress)
    try:
        return asyncio.run(runner.run())
    except KeyboardInterrupt:
        raise RunInterrupted(runner.answered) from None
