import asyncio

import numpy as np
import pytest

from spatialbench.models.errors import BackendError, RetryableError
from spatialbench.models.retry import RetryPolicy, call_with_retries, parse_retry_after
from spatialbench.records.messages import Response


def test_backoff_grows_and_honours_retry_after() -> None:
    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=8.0)
    rng = np.random.default_rng(0)
    delays = [policy.delay(k, None, rng) for k in range(6) for _ in range(200)]
    assert max(delays[:200]) <= 1.0 and max(delays[-200:]) <= 8.0 and max(delays[-200:]) > 4.0
    assert policy.delay(0, 30.0, rng) == 30.0


def test_parse_retry_after_seconds_and_date() -> None:
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == pytest.approx(10.0)
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None


def test_retries_transient_then_succeeds_and_waits_retry_after() -> None:
    calls, waits = [], []

    async def attempt() -> Response:
        calls.append(1)
        if len(calls) < 3:
            raise RetryableError("429", retry_after=2.5)
        return Response(text="ok")

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    out = asyncio.run(
        call_with_retries(attempt, policy=RetryPolicy(base_delay_s=0.01), timeout_s=1.0,
                          classify=lambda e: None, rng=np.random.default_rng(0), sleep=sleep)
    )
    assert out.text == "ok" and len(calls) == 3 and waits == [2.5, 2.5]


def test_permanent_error_is_not_retried_and_timeout_gives_up() -> None:
    calls = []

    async def bad() -> Response:
        calls.append(1)
        raise ValueError("400 bad request")

    async def slow() -> Response:
        await asyncio.sleep(1.0)
        return Response(text="late")

    async def no_sleep(_: float) -> None:
        return None

    kwargs = dict(policy=RetryPolicy(max_attempts=3), classify=lambda e: None,
                  rng=np.random.default_rng(0), sleep=no_sleep)
    with pytest.raises(BackendError, match="400 bad request"):
        asyncio.run(call_with_retries(bad, timeout_s=1.0, **kwargs))
    assert len(calls) == 1
    with pytest.raises(BackendError, match="gave up after 3 attempts: request timed out"):
        asyncio.run(call_with_retries(slow, timeout_s=0.01, **kwargs))
