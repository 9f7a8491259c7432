"""Every API back end encodes through one path: each distinct frame once, off the event loop when large.

Issue 16: openai_compat encoded once per frame in worker threads while Gemini and Anthropic encoded every
image of every request on the event loop. The three back ends now share ``ApiBackend._prepared``.
"""

import asyncio
import threading
import zlib

import numpy as np
import pytest

import spatialbench.models.images as images
from spatialbench.models.api import ApiSettings
from spatialbench.models.resolve import load_backend
from spatialbench.records.messages import ImagePart, Request, TextPart
from support.openai_server import OpenAIServer
from support.recording_server import RecordingServer

GEMINI = {"candidates": [{"content": {"role": "model", "parts": [{"text": "B"}]}, "finishReason": "STOP"}]}
ANTHROPIC = {"id": "m", "type": "message", "role": "assistant", "model": "c", "stop_reason": "end_turn",
             "content": [{"type": "text", "text": "B"}], "usage": {"input_tokens": 1, "output_tokens": 1}}


def _ask_concurrently(name: str, url: str, request: Request, n: int) -> list[str]:
    async def main() -> list[str]:
        options = {} if name.startswith("openai") else {"base_url": url}
        backend = load_backend(name, api=ApiSettings(concurrency=n, timeout_s=10.0), **options)
        try:
            return [r.text for r in await asyncio.gather(*(backend.generate(request) for _ in range(n)))]
        finally:
            await backend.aclose()

    return asyncio.run(main())


@pytest.mark.parametrize("provider", ["openai-compatible", "gemini", "anthropic"])
def test_concurrent_requests_encode_each_frame_once_in_worker_threads(provider, monkeypatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "k")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    threads: list[str] = []
    real = images._encode
    spy = lambda *a: threads.append(threading.current_thread().name) or real(*a)  # noqa: E731
    monkeypatch.setattr(images, "_encode", spy)
    rng = np.random.default_rng(zlib.crc32(provider.encode()))  # frames no other test has encoded
    frames = [rng.integers(0, 256, (400, 600, 3), dtype=np.uint8) for _ in range(2)]  # 480,000 px: large
    for pixels in frames:
        pixels.setflags(write=False)
    request = Request(parts=(TextPart("How many?"), *(ImagePart(p) for p in frames)))
    if provider == "openai-compatible":
        with OpenAIServer() as server:
            texts = _ask_concurrently(f"openai-compatible:{server.url}#m", server.url, request, 6)
    else:
        reply = GEMINI if provider == "gemini" else ANTHROPIC
        with RecordingServer(lambda recorded, index: (200, {}, reply)) as server:
            texts = _ask_concurrently(f"{provider}:test-model", server.url, request, 6)
    assert texts == ["A" if provider == "openai-compatible" else "B"] * 6
    assert len(threads) == 2  # one encoding per distinct frame for 6 concurrent requests
    assert threading.main_thread().name not in threads  # never on the event loop's thread
