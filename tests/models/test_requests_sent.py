"""A back end counts every request it sends, retries included: the count the server itself logs.

Issue 26: ``judge`` printed "0 requests sent" while the server had counted 312 (52 items x 6 attempts).
"""

from __future__ import annotations

import asyncio

from spatialbench.models.api import ApiSettings
from spatialbench.models.errors import BackendError
from spatialbench.models.resolve import load_backend
from spatialbench.models.retry import RetryPolicy
from spatialbench.records.messages import Request, TextPart
from support.openai_server import Fault, OpenAIServer, ServerScript

FAST = ApiSettings(retry=RetryPolicy(max_attempts=3, base_delay_s=0.0), timeout_s=10)


def _ask(name: str, n: int) -> tuple[list[object], int | None]:
    backend = load_backend(name, api=FAST, seed=0)

    async def go() -> list[object]:
        try:
            requests = [Request(parts=(TextPart(f"question {k}"),)) for k in range(n)]
            return await asyncio.gather(*(backend.generate(r) for r in requests), return_exceptions=True)
        finally:
            await backend.aclose()

    outcomes = asyncio.run(go())
    return outcomes, backend.requests_sent()


def test_every_attempt_of_a_failing_request_is_counted() -> None:
    script = ServerScript(fault=lambda seen, text: Fault("500"))
    with OpenAIServer(script) as server:
        outcomes, sent = _ask(f"openai-compatible:{server.url}#m", 4)
    assert all(isinstance(o, BackendError) for o in outcomes)
    assert sent == len(script.log) == 4 * 3


def test_a_retried_success_counts_both_attempts() -> None:
    script = ServerScript(fault=lambda seen, text: Fault("500") if seen == 0 else None)
    with OpenAIServer(script) as server:
        outcomes, sent = _ask(f"openai-compatible:{server.url}#m", 2)
    assert [getattr(o, "text", None) for o in outcomes] == ["A", "A"]
    assert sent == len(script.log) == 2 * 2


def test_a_pool_counts_the_attempts_sent_to_every_endpoint() -> None:
    first = ServerScript(fault=lambda seen, text: Fault("500"))
    second = ServerScript(fault=lambda seen, text: Fault("500"))
    with OpenAIServer(first) as a, OpenAIServer(second) as b:
        outcomes, sent = _ask(f"openai-compatible:{a.url},{b.url}#m", 3)
    assert all(isinstance(o, BackendError) for o in outcomes)
    assert sent == len(first.log) + len(second.log) == 3 * 3


def test_a_back_end_that_sends_nothing_over_a_network_does_not_count() -> None:
    from spatialbench.models.base import Backend

    class Local(Backend):
        async def generate(self, request: Request):  # type: ignore[no-untyped-def]
            raise NotImplementedError

    assert Local().requests_sent() is None  # the asker then counts the turns it stored
