"""Ask a model one validated question per item, resumably: the requests of the judge and consistency checks.

Each asker (one judge model, or the run's own model for the self-consistency check) has its own run store
``RUN/analysis/<kind>/<model slug>/run.sqlite`` (:class:`~spatialbench.runs.store.RunStore`, WAL: a
process killed even by SIGKILL keeps every item committed before). An item's key hashes its id, the text
sent and the model's identity (:func:`~spatialbench.runs.keys.model_identity`); an item with an ``ok``
row is not asked again, so a re-run sends only what is missing. Turns go through
:class:`~spatialbench.runs.dialogue.Turns` (``ask``, then ``retry`` when the reply is invalid: the reply
and a message naming what is wrong are sent back once). An item whose retry is still invalid, or whose
request fails, gets a ``failed`` row with the reason; re-running re-reads its stored turns (no new
requests for them) and records the same failure. A reply longer than :data:`REPLY_CAP` (64 KiB) is cut
to it before it is stored or sent back in the retry, and its ``raw`` says so.

One process at a time asks into a store: :func:`locked_store` holds ``run.lock`` in the store's folder
(:func:`~spatialbench.runs.lock.run_lock`), so a second judge of the same run with the same model is refused
before it sends anything instead of paying every request twice. The requests counted
(:attr:`Asked.requests`) are those the back end sent, every retry included
(:meth:`~spatialbench.models.base.Backend.requests_sent`): what the server saw.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from spatialbench.models.base import Backend
from spatialbench.models.errors import BackendError
from spatialbench.prompting.templates import fill
from spatialbench.records.messages import Request, Response, TextPart
from spatialbench.records.progress import Tally
from spatialbench.records.redaction import redact, secret_values
from spatialbench.runs.dialogue import Turns, turn_record
from spatialbench.runs.environment import environment
from spatialbench.runs.keys import model_identity, request_text
from spatialbench.runs.lock import run_lock
from spatialbench.runs.store import RunStore

#: bytes (UTF-8) of a reply kept in the store and sent back in the retry turn; the rest is cut off and the
#: reply's ``raw`` records ``reply_truncated_from_bytes`` (its full size)
REPLY_CAP = 64 * 1024

Validate = Callable[[str], "str | None"]
"""A reply's problem (text naming it) or None when the reply is valid; never raises."""


@dataclass(frozen=True)
class Question:
    """One item's request, as the asker sends it."""

    item_id: str
    request: Request


@dataclass(frozen=True)
class Answer:
    """One item's outcome: the valid reply text, or None and the recorded failure; ``requests`` sent now."""

    item_id: str
    text: str | None
    error: str | None
    requests: int


@dataclass(frozen=True)
class Asked:
    """Every question's outcome (in the questions' order) and the requests sent now, retries included."""

    answers: list[Answer]
    requests: int


def model_slug(name: str) -> str:
    """Return a folder name for model ``name``: its identity, filesystem-safe, and a short hash."""
    identity = model_identity(name)
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", identity).strip("_")[:60]
    return f"{safe}-{hashlib.sha256(identity.encode()).hexdigest()[:8]}"


def endpoint_label(name: str) -> str:
    """Return how an asker is named in stores and documents (``openai-compatible:judge@1a2b3c4d``).

    Its identity plus, when the identity drops part of ``name`` (an OpenAI-compatible endpoint URL), ``@``
    and a short hash of the full name, so two endpoints serving the same model name never share a store.
    """
    identity = model_identity(name)
    if identity == name:
        return name
    return f"{identity}@{hashlib.sha256(name.encode()).hexdigest()[:8]}"


def item_key(question: Question, model: str) -> str:
    """Return the store key of ``question`` asked of ``model`` (text, settings, model identity)."""
    record = {
        "item": question.item_id,
        "request": request_text(question.request),
        "settings": asdict(question.request.settings),
        "model": model_identity(model),
    }
    return hashlib.sha256(json.dumps(record, sort_keys=True, default=str).encode()).hexdigest()


def open_store(run_dir: Path, kind: str, model: str, backend: Backend, benchmark: str) -> RunStore:
    """Open (create) the asker's store and record this invocation (kind and run benchmark, model).

    Raises:
        RunSetupError: the store is damaged or holds another model's answers (the message names it).
    """
    store = RunStore(_store_folder(run_dir, kind, model) / "run.sqlite")
    config = {"data": {"benchmark": f"{kind}:{benchmark}"}, "model": {"name": model}}
    store.record_invocation(config, environment(), backend.describe())
    return store


def _store_folder(run_dir: Path, kind: str, model: str) -> Path:
    return run_dir / "analysis" / kind / model_slug(model)


@contextmanager
def locked_store(
    run_dir: Path, kind: str, model: str, backend: Backend, benchmark: str
) -> Iterator[RunStore]:
    """:func:`open_store` while holding the store folder's ``run.lock``; the store is closed after.

    Raises:
        RunLockedError: another process asks into this store (the message names the lock file and pid).
        RunSetupError: the store is damaged or holds another model's answers.
    """
    with run_lock(_store_folder(run_dir, kind, model), kind):
        store = open_store(run_dir, kind, model, backend, benchmark)
        try:
            yield store
        finally:
            store.close()


class _Capped(Backend):
    """``backend`` with every reply cut to :data:`REPLY_CAP` bytes (a huge reply must not bloat the store)."""

    def __init__(self, backend: Backend) -> None:
        self.backend, self.provider = backend, backend.provider

    async def generate(self, request: Request) -> Response:
        reply = await self.backend.generate(request)
        data = reply.text.encode("utf-8", errors="replace") if isinstance(reply.text, str) else b""
        if len(data) <= REPLY_CAP:
            return reply
        text = data[:REPLY_CAP].decode("utf-8", errors="ignore")
        return replace(reply, text=text, raw={**(reply.raw or {}), "reply_truncated_from_bytes": len(data)})

    def describe(self) -> dict[str, Any]:
        return self.backend.describe()

    async def aclose(self) -> None:
        await self.backend.aclose()


async def _ask_one(
    backend: Backend, store: RunStore, key: str, question: Question, validate: Validate, retry: str
) -> Answer:
    turns = Turns(backend, store, key, question.item_id)
    try:
        first = await turns("ask", question.request)
        problem = validate(first.text)
        reply: Response | None = first
        if problem is not None:
            again = question.request.followup(first.text, (TextPart(fill(retry, {"error": problem})),))
            reply = await turns("retry", again)
            problem = validate(reply.text)
    except BackendError as exc:
        reply, problem = None, f"{type(exc).__name__}: {exc}"
    sent = len(turns.replies) - turns.reused
    prompt = turn_record(question.request)
    if reply is not None and problem is None:
        store.put(key, question.item_id, prompt, reply)
        return Answer(question.item_id, reply.text, None, sent)
    error = problem if reply is None else f"invalid reply after one retry: {problem}"
    store.put(key, question.item_id, prompt, None, error)
    return Answer(question.item_id, None, error, sent)


async def ask_all(
    backend: Backend,
    store: RunStore,
    model: str,
    questions: list[Question],
    validate: Validate,
    retry: str,
    concurrency: int = 8,
    tally: Tally | None = None,
) -> Asked:
    """Ask every question not answered validly before; return all outcomes in ``questions`` order.

    ``retry`` is the retry message, with ``{error}`` where the problem is named. Replies are capped at
    :data:`REPLY_CAP` bytes before they are stored or sent back. ``tally`` counts one step per question
    (answered before, answered now or failed).
    """
    keys = [item_key(q, model) for q in questions]
    done = {r.request_key: r for r in store.results(keys) if r.status == "ok"}
    slots = asyncio.Semaphore(concurrency)
    capped = _Capped(backend)
    before = backend.requests_sent()

    async def one(question: Question, key: str) -> Answer:
        if key in done:
            answer = Answer(question.item_id, done[key].response, None, 0)
        else:
            async with slots:
                answer = await _ask_one(capped, store, key, question, validate, retry)
        if tally is not None:
            tally.step()
        return answer

    try:
        answers = list(await asyncio.gather(*(one(q, k) for q, k in zip(questions, keys, strict=True))))
    finally:
        await backend.aclose()
    after = backend.requests_sent()  # None: a back end that does not count (local): its turns sent
    sent = sum(a.requests for a in answers) if before is None or after is None else after - before
    return Asked(answers, sent)


def failures(answers: list[Answer]) -> list[dict[str, str]]:
    """Return ``{"item", "error"}`` of every failed answer, secrets masked."""
    secrets = secret_values()
    return [{"item": a.item_id, "error": redact(a.error, secrets)} for a in answers if a.error]


def outcome_counts(asked: Asked) -> dict[str, Any]:
    """Return how many answers are valid, failed, and requests sent by this invocation (retries too)."""
    return {
        "valid": sum(a.text is not None for a in asked.answers),
        "failed": sum(a.text is None for a in asked.answers),
        "requests_sent": asked.requests,
    }
