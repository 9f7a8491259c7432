"""Several OpenAI-compatible endpoints of one model as one back end (issue 15: vLLM data-parallel replicas).

Model name: ``openai-compatible:URL1,URL2,...#MODEL`` (the served model name once, after ``#``). Its request
keys are those of ``openai-compatible:URL#MODEL`` (:func:`spatialbench.runs.keys.model_identity` keeps the
served name only), so a pooled run resumes a single-endpoint run and the reverse.

Dispatch: each request goes to the healthy endpoint with the fewest requests in flight (ties: the one that
received fewest so far, then list order). Each endpoint has its own concurrency bound (the run's
``concurrency``; the runner keeps at most twice that in flight in all) and its own single-attempt transport;
the retry loop is the pool's, with the run's policy (:mod:`spatialbench.models.retry`):

- a *connection* failure (refused, reset, a reply cut off: the endpoint is gone) sends the request again at
  once to another healthy endpoint, and ``dead_after`` consecutive ones mark the endpoint dead: it is
  drained (no new request goes there); after ``revive_after_s`` it gets requests again on probation (one
  more connection failure drains it again), so a restarted replica rejoins the run;
- another transient failure (429, 5xx, timeout) waits the policy's backoff, then goes to the best endpoint;
- a permanent failure (400, an unreadable reply) is raised at once, as by one endpoint.

When every endpoint is dead (none due for probation) the request raises
:class:`EndpointUnreachableError` (the runner stops and leaves the rest unattempted). Each answer records
the endpoint that gave it in ``raw["endpoint"]`` (the run store keeps it); :meth:`PooledBackend.stats`
counts requests and answers per endpoint, and closing a pool that drained an endpoint logs a warning with
those counts (stderr under ``spatialbench run``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, replace
from typing import Any

from spatialbench.models.api import ApiBackend, ApiSettings, check_base_url, public_url
from spatialbench.models.base import BACKENDS, Backend
from spatialbench.models.errors import BackendError, EndpointUnreachableError, RetryableError
from spatialbench.models.retry import RetryPolicy
from spatialbench.records.messages import Request, Response

log = logging.getLogger(__name__)
PROVIDER = "openai-compatible"
#: consecutive connection failures that mark an endpoint dead (drained)
DEAD_AFTER = 2
#: seconds after which a dead endpoint is tried again (on probation)
REVIVE_AFTER_S = 30.0


@dataclass
class Endpoint:
    """One replica: its back end, load and health."""

    url: str
    backend: Backend
    in_flight: int = 0
    sent: int = 0
    answered: int = 0
    failures: int = 0
    dead: bool = False
    dead_since: float = 0.0
    drained: int = 0

    def stats(self) -> dict[str, Any]:
        """Return requests sent, answered, in flight, its state and how often it was drained."""
        state = "dead (drained)" if self.dead else "healthy"
        counts = {"sent": self.sent, "answered": self.answered, "in_flight": self.in_flight}
        return {**counts, "state": state, "drained": self.drained}


def pool_urls(spec: str) -> tuple[list[str], str] | None:
    """Split ``URL1,URL2#MODEL`` into (urls, model); None when ``spec`` names one URL only."""
    base, sep, model = spec.rpartition("#")
    urls = [u.strip() for u in base.split(",")]
    if not sep or len(urls) < 2:
        return None
    return urls, model


class PooledBackend(ApiBackend):
    """One model served at several OpenAI-compatible URLs (rules in the module docstring).

    Raises (at construction):
        BackendError: a URL that is not http(s) with a host and a valid port, an empty entry, or the same
            URL twice.
    """

    provider = PROVIDER

    def __init__(
        self,
        urls: list[str],
        model: str,
        settings: ApiSettings | None = None,
        seed: int | None = None,
        dead_after: int = DEAD_AFTER,
        revive_after_s: float | None = None,
        **options: Any,
    ) -> None:
        super().__init__(settings, seed)
        if len(set(urls)) != len(urls) or not all(urls):
            raise BackendError(
                f"openai-compatible pool: empty or repeated URL in {public_url(','.join(urls))!r}"
            )
        for url in urls:
            check_base_url(url)  # a bad port or bracket: one line, not urllib's ValueError
        # one attempt per endpoint call: retries and breaking are the pool's
        single = replace(self.settings, retry=RetryPolicy(max_attempts=1), breaker_failures=2**31)
        self.model, self.dead_after = model, dead_after
        self.revive_after_s = REVIVE_AFTER_S if revive_after_s is None else revive_after_s
        self.endpoints = [
            Endpoint(
                url, BACKENDS.create("openai-compatible", f"{url}#{model}", api=single, seed=seed, **options)
            )
            for url in urls
        ]

    def _pick(self) -> Endpoint:
        now = time.monotonic()
        for e in self.endpoints:
            if e.dead and now - e.dead_since >= self.revive_after_s:  # probation: one failure drains it
                e.dead, e.failures = False, self.dead_after - 1
        alive = [e for e in self.endpoints if not e.dead]
        if not alive:
            urls = ", ".join(str(public_url(e.url)) for e in self.endpoints)
            raise EndpointUnreachableError(f"every endpoint of the pool is unreachable ({urls})")
        return min(alive, key=lambda e: (e.in_flight, e.sent))

    async def _send(self, request: Request) -> Response:  # pragma: no cover - generate is overridden
        raise NotImplementedError

    async def generate(self, request: Request) -> Response:
        """Answer one request on the best endpoint, moving it to another one when an endpoint fails.

        Raises:
            BackendError: a permanent failure, or the last transient one once the policy's attempts are spent.
            EndpointUnreachableError: every endpoint is dead.
        """
        policy, last = self.settings.retry, None
        for k in range(policy.max_attempts):
            endpoint = self._pick()
            try:
                response = await self._call(endpoint, request)
            except RetryableError as failure:
                last = failure
                self._record_failure(endpoint, failure)
                if failure.connection and any(not e.dead and e is not endpoint for e in self.endpoints):
                    continue  # the endpoint is gone: another one, at once
                if k + 1 < policy.max_attempts:
                    await asyncio.sleep(policy.delay(k, failure.retry_after, self._rng))
                continue
            raw = {**(response.raw or {}), "endpoint": public_url(endpoint.url)}
            return replace(response, raw={**raw, "attempts": k + 1} if k else raw)
        assert last is not None
        raise BackendError(f"gave up after {policy.max_attempts} attempts: {last}") from last

    async def _call(self, endpoint: Endpoint, request: Request) -> Response:
        """One attempt at ``endpoint``; its transient failure comes back as the RetryableError."""
        endpoint.in_flight += 1
        endpoint.sent += 1
        try:
            response = await endpoint.backend.generate(request)
        except EndpointUnreachableError:
            raise
        except BackendError as exc:
            if isinstance(exc.__cause__, RetryableError):
                raise exc.__cause__ from None
            raise
        finally:
            endpoint.in_flight -= 1
        endpoint.failures = 0
        endpoint.answered += 1
        return response

    def _record_failure(self, endpoint: Endpoint, failure: RetryableError) -> None:
        if not failure.connection:
            endpoint.failures = 0  # it answered (429, 5xx) or is slow: reachable
            return
        endpoint.failures += 1
        if not endpoint.dead and endpoint.failures >= self.dead_after:
            endpoint.dead, endpoint.dead_since = True, time.monotonic()
            endpoint.drained += 1

    def requests_sent(self) -> int:
        """Return the attempts sent to every endpoint so far (each endpoint counts its own)."""
        return sum(e.backend.requests_sent() or 0 for e in self.endpoints)

    def stats(self) -> dict[str, dict[str, Any]]:
        """Endpoint (public URL) → requests sent, answered, in flight, state."""
        return {str(public_url(e.url)): e.stats() for e in self.endpoints}

    def describe(self) -> dict[str, Any]:
        """Return the transport settings, the served model and the endpoints (no credentials)."""
        return {
            **super().describe(),
            "model": self.model,
            "endpoints": [public_url(e.url) for e in self.endpoints],
            "dispatch": f"fewest in flight; dead after {self.dead_after} connection failures, "
            f"tried again after {self.revive_after_s:g} s",
        }

    async def aclose(self) -> None:
        """Close every endpoint's connections; warn with the counts per endpoint if one was drained."""
        if any(e.drained for e in self.endpoints):
            counts = "; ".join(
                f"{url}: {s['answered']} answered of {s['sent']} sent, {s['state']}"
                for url, s in self.stats().items()
            )
            log.warning("openai-compatible pool: requests per endpoint: %s", counts)
        await asyncio.gather(*(e.backend.aclose() for e in self.endpoints))


def make_pool(
    spec: str, *, api: ApiSettings | None = None, seed: int | None = None, **options: Any
) -> Backend:
    """``openai-compatible:URL1,URL2,...#MODEL`` → a :class:`PooledBackend`.

    Raises:
        BackendError: fewer than two URLs, no ``#MODEL``, or a bad URL (from the single-endpoint factory).
    """
    parsed = pool_urls(spec)
    if parsed is None:
        raise BackendError(f"expected openai-compatible:URL1,URL2,...#MODEL, got {public_url(spec)!r}")
    urls, model = parsed
    pool = PooledBackend(urls, model, settings=api, seed=seed, **options)
    kwargs = {"api": api, "seed": seed, **options}  # as Registry.create records a factory's call
    pool.registered_as = {
        "kind": BACKENDS.kind,
        "name": "openai-compatible",
        "args": [spec],
        "kwargs": kwargs,
    }
    return pool
