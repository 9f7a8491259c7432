"""Transient failures, handled once for every API back end: backoff, ``Retry-After``, breaker, retry loop.

Attempt ``k`` that fails transiently waits with exponential backoff and full jitter (:class:`RetryPolicy`),
or the server's ``Retry-After`` when longer. Circuit breaker: while no request of a back end has succeeded
yet, ``threshold`` consecutive *connection* failures (refused, DNS, reset: :class:`RetryableError` with
``connection=True``) open the breaker: the failing request and every later one raise
:class:`EndpointUnreachableError` at once, so a wrong or down endpoint costs seconds instead of every
item's backoff. After the first success the breaker is disarmed for good (a mid-run outage is retried per
request as usual).
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from spatialbench.models.errors import BackendError, EndpointUnreachableError, RetryableError
from spatialbench.records.messages import Response


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter.

    Attempt ``k`` (0-based) that fails transiently waits ``uniform(0, min(max_delay_s, base_delay_s * 2**k))``
    seconds, or the server's ``Retry-After`` when that is longer (capped at ``max_retry_after_s``).
    ``max_attempts`` counts the first try.
    """

    max_attempts: int = 6
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0
    max_retry_after_s: float = 300.0

    def delay(self, attempt: int, retry_after: float | None, rng: np.random.Generator) -> float:
        """Seconds to wait after failed attempt ``attempt`` (0-based)."""
        backoff = float(rng.uniform(0.0, min(self.max_delay_s, self.base_delay_s * 2.0**attempt)))
        if retry_after is None:
            return backoff
        return max(backoff, min(retry_after, self.max_retry_after_s))


class ConnectionBreaker:
    """Counts consecutive connection failures until the first success; opens at ``threshold``."""

    def __init__(self, threshold: int = 5) -> None:
        self.threshold = threshold
        self.failures = 0
        self.armed = True  # disarmed by the first success
        self.open = False

    def record(self, failure: RetryableError | None) -> None:
        """Count one attempt's outcome: None = success, else its transient failure."""
        if not self.armed:
            return
        if failure is None:
            self.armed = False
        elif failure.connection:
            self.failures += 1
            self.open = self.failures >= self.threshold
        else:
            self.failures = 0  # the server answered (429, 5xx, timeout): it is reachable

    def error(self, last: BaseException | None = None) -> EndpointUnreachableError:
        """Return the error raised while open."""
        cause = f"; last: {last}" if last is not None else ""
        return EndpointUnreachableError(
            f"endpoint unreachable: {self.failures} consecutive connection failures before any answer{cause}"
        )


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date); None if absent/bad."""
    if value is None or not value.strip():
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def retry_after_from_headers(headers: Any) -> float | None:
    """Read ``retry-after-ms`` or ``Retry-After`` from a mapping of response headers."""
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        seconds = parse_retry_after(millis)
        return None if seconds is None else seconds / 1000.0
    return parse_retry_after(headers.get("retry-after"))


def is_retryable_status(status: int) -> bool:
    """HTTP statuses worth retrying: 408, 409 (lock), 429 and every 5xx."""
    return status in (408, 409, 429) or status >= 500


def classify_sdk_error(exc: Exception, sdk: Any) -> RetryableError | None:
    """Map an SDK exception to a transient failure (RetryableError) or None when it is permanent.

    For SDKs with the common ``APITimeoutError`` / ``APIConnectionError`` / ``APIStatusError`` classes
    (``openai``, ``anthropic``): timeouts, dropped connections and retryable statuses are transient.
    """
    if isinstance(exc, sdk.APITimeoutError):  # a subclass of APIConnectionError, but the server is there
        return RetryableError(f"{type(exc).__name__}: {exc}")
    if isinstance(exc, sdk.APIConnectionError):
        return RetryableError(f"{type(exc).__name__}: {exc}", connection=True)
    if isinstance(exc, sdk.APIStatusError) and is_retryable_status(exc.status_code):
        wait = retry_after_from_headers(exc.response.headers)
        return RetryableError(f"HTTP {exc.status_code}: {exc.message}", retry_after=wait)
    return None


def _with_attempts(response: Response, attempts: int) -> Response:
    """Record in ``raw.attempts`` the requests a success took, when more than one.

    The run store counts every request sent for an item, the failed tries of this pass included.
    """
    if attempts == 1:
        return response
    return replace(response, raw={**(response.raw or {}), "attempts": attempts})


async def call_with_retries(
    attempt: Callable[[], Awaitable[Response]],
    *,
    policy: RetryPolicy,
    timeout_s: float | None,
    classify: Callable[[Exception], RetryableError | None],
    rng: np.random.Generator,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    breaker: ConnectionBreaker | None = None,
) -> Response:
    """Run ``attempt`` until it succeeds, a permanent error occurs or ``policy.max_attempts`` is spent.

    ``timeout_s`` (None = none) bounds each attempt; a timeout counts as a transient failure.
    ``breaker`` (shared by a back end's requests) sees every attempt's outcome.

    Raises:
        BackendError: permanent failure, or the last transient failure once attempts are spent
            (the message counts the attempts).
        EndpointUnreachableError: the breaker is open (nothing is sent) or this attempt opened it.
    """
    last: RetryableError | None = None
    for k in range(policy.max_attempts):
        if breaker is not None and breaker.open:
            raise breaker.error(last)
        try:
            response = await (attempt() if timeout_s is None else asyncio.wait_for(attempt(), timeout_s))
        except TimeoutError:
            last = RetryableError("request timed out")
        except RetryableError as exc:
            last = exc
        except BackendError:
            raise
        except Exception as exc:  # provider SDK errors: classified by the back end
            last = classify(exc)
            if last is None:
                raise BackendError(f"{type(exc).__name__}: {exc}") from exc
        else:
            if breaker is not None:
                breaker.record(None)
            return _with_attempts(response, k + 1)
        if breaker is not None:
            breaker.record(last)
            if breaker.open:
                raise breaker.error(last) from last
        if k + 1 < policy.max_attempts:
            await sleep(policy.delay(k, last.retry_after, rng))
    assert last is not None
    raise BackendError(f"gave up after {policy.max_attempts} attempts: {last}") from last
