"""A concurrency slot freed by an answer goes to a request that only has to be sent (issue 25).

``ApiBackend.generate`` builds a request's payload (``_build``) before it waits for a slot, once per request
(retries resend it); images all encoded already are spliced in on the event loop instead of in a worker
thread; the per-attempt timeout still applies to the call alone.
"""

import asyncio
import threading
from typing import Any

import numpy as np
import pytest

from spatialbench.models.api import ApiBackend, ApiSettings
from spatialbench.models.errors import BackendError, RetryableError
from spatialbench.models.images import ImageFormat, all_encoded, encode_together
from spatialbench.models.retry import RetryPolicy
from spatialbench.records.messages import ImagePart, Request, Response, TextPart


class Probe(ApiBackend):
    """Records, per built payload, how many requests were in flight; fails the first ``fail`` attempts."""

    provider = "probe"

    def __init__(self, settings: ApiSettings, fail: int = 0, delay_s: float = 0.02) -> None:
        super().__init__(settings)
        self.active, self.fail, self.delay_s = 0, fail, delay_s
        self.built: list[tuple[str, int]] = []  # (question, requests in flight when it was built)
        self.sent: list[Any] = []

    def _build(self, request: Request) -> str:
        question = request.turns[-1][1][0].text  # type: ignore[union-attr]
        self.built.append((question, self.active))
        return f"body of {question}"

    async def _send_built(self, request: Request, payload: Any) -> Response:
        self.active += 1
        try:
            self.sent.append(payload)
            await asyncio.sleep(self.delay_s)
            if len(self.sent) <= self.fail:
                raise RetryableError("busy")
            return Response(text=payload)
        finally:
            self.active -= 1

    async def _send(self, request: Request) -> Response:  # pragma: no cover - generate sends built ones
        raise NotImplementedError


def _ask(backend: ApiBackend, questions: list[str]) -> list[str]:
    async def main() -> list[str]:
        requests = [Request(parts=(TextPart(q),)) for q in questions]
        return [r.text for r in await asyncio.gather(*(backend.generate(r) for r in requests))]

    return asyncio.run(main())


def test_payloads_are_built_before_a_slot_is_free() -> None:
    backend = Probe(ApiSettings(concurrency=1))
    assert _ask(backend, ["q0", "q1", "q2"]) == ["body of q0", "body of q1", "body of q2"]
    # one slot: q1 and q2 were built while q0 held it, not between an answer and their own sending
    assert backend.built == [("q0", 0), ("q1", 1), ("q2", 1)]


def test_a_retried_request_resends_the_payload_built_once() -> None:
    backend = Probe(ApiSettings(concurrency=2, retry=RetryPolicy(base_delay_s=0.001)), fail=1)
    assert _ask(backend, ["q0"]) == ["body of q0"]
    assert backend.built == [("q0", 0)]
    assert backend.sent == ["body of q0", "body of q0"]  # attempt 1 failed (busy), attempt 2 answered


def test_the_attempt_timeout_covers_the_call_and_is_retried() -> None:
    policy = RetryPolicy(max_attempts=2, base_delay_s=0.001)
    backend = Probe(ApiSettings(concurrency=1, timeout_s=0.05, retry=policy), delay_s=0.2)
    with pytest.raises(BackendError, match="gave up after 2 attempts: request timed out"):
        _ask(backend, ["q0"])
    assert len(backend.sent) == 2


def test_large_images_already_encoded_are_spliced_on_the_event_loop() -> None:
    rng = np.random.default_rng(25)
    fresh = [rng.integers(0, 256, (480, 640, 3), dtype=np.uint8) for _ in range(2)]  # 614,400 px: large
    cached = [rng.integers(0, 256, (480, 640, 3), dtype=np.uint8) for _ in range(2)]
    for pixels in fresh + cached:
        pixels.setflags(write=False)
    backend = Probe(ApiSettings())
    encode_together(cached, ImageFormat.PNG, 90, backend.image_form)
    assert all_encoded(cached, ImageFormat.PNG, 90, "url")
    assert not all_encoded(fresh, ImageFormat.PNG, 90, "url")

    def thread_of(frames: list[np.ndarray]) -> str:
        request = Request(parts=(TextPart("q"), *(ImagePart(p) for p in frames)))
        return asyncio.run(backend._off_loop(request, lambda: threading.current_thread().name))

    assert thread_of(cached) == threading.main_thread().name
    assert thread_of(fresh) != threading.main_thread().name  # encoding them: a worker thread
    assert all_encoded(fresh, ImageFormat.PNG, 90, "url")
