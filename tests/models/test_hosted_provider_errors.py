"""Retries, refusals and keys, the same for every hosted back end (real SDKs against a loopback server).

One case per provider: its wire format for an answer and an error, where its key travels, and the
variable that holds the key. Provider-specific mapping (images, usage, thinking tokens) stays in each
provider's own test module.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from spatialbench.models.api import ApiSettings
from spatialbench.models.errors import BackendError
from spatialbench.models.resolve import load_backend
from spatialbench.models.retry import RetryPolicy
from spatialbench.records.messages import ImagePart, Request, TextPart
from support.recording_server import Recorded, RecordingServer
from support.secrets import debug_log_to, files_containing

FAST = ApiSettings(timeout_s=5.0, retry=RetryPolicy(max_attempts=3, base_delay_s=0.01))


@dataclass(frozen=True)
class Provider:
    """How one hosted provider answers, refuses and authenticates."""

    name: str
    model: Callable[[str], str]  # server URL -> model name
    base_url: bool  # the model takes base_url= (Gemini, Anthropic); else the URL is in the name
    ok: dict[str, Any]
    text: str
    error: Callable[[int, str], dict[str, Any]]  # (status, message) -> error body
    key_variable: str
    missing_key: str  # what the missing-key error names
    hosted_name: str  # the model name that needs a key
    key_header: Callable[[Recorded], str]
    secret: str


PROVIDERS = [
    Provider(
        "gemini", lambda url: "gemini:gemini-test", True,
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "B"}]}, "finishReason": "STOP"}],
         "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 1, "totalTokenCount": 6}},
        "B",
        lambda status, message: {"error": {"code": status, "message": message, "status": "INVALID_ARGUMENT"}},
        "GEMINI_API_KEY", "GOOGLE_API_KEY or GEMINI_API_KEY", "gemini:gemini-test",
        lambda rec: rec.headers["x-goog-api-key"], "gem-test-secret-7f3a",
    ),
    Provider(
        "anthropic", lambda url: "anthropic:claude-test", True,
        {"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-test",
         "content": [{"type": "text", "text": "2.5"}], "stop_reason": "end_turn", "stop_sequence": None,
         "usage": {"input_tokens": 4, "output_tokens": 1}},
        "2.5", lambda status, message: {"type": "error", "error": {"type": "invalid_request_error",
                                                                   "message": message}},
        "ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY", "anthropic:claude-test",
        lambda rec: rec.headers["authorization"].removeprefix("Bearer "), "sk-ant-test-secret-91c2",
    ),
    Provider(
        "openai-compatible", lambda url: f"openai-compatible:{url}/v1#test-model", False,
        {"id": "c1", "object": "chat.completion", "created": 0, "model": "test-model",
         "choices": [{"index": 0, "message": {"role": "assistant", "content": "C"}, "finish_reason": "stop"}],
         "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}},
        "C", lambda status, message: {"error": {"message": message, "type": "invalid_request_error"}},
        "OPENAI_API_KEY", "OPENAI_API_KEY", "openai:gpt-4o",
        lambda rec: rec.headers["authorization"].removeprefix("Bearer "), "sk-openai-test-secret-55d1",
    ),
]


@pytest.fixture(params=PROVIDERS, ids=[p.name for p in PROVIDERS])
def provider(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Provider:
    chosen: Provider = request.param
    for name in ("GOOGLE_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(chosen.key_variable, chosen.secret)
    return chosen


def _ask(provider: Provider, url: str, request: Request) -> tuple[Any, dict[str, Any]]:
    async def main() -> tuple[Any, dict[str, Any]]:
        extra = {"base_url": url} if provider.base_url else {}
        backend = load_backend(provider.model(url), api=FAST, **extra)
        try:
            return await backend.generate(request), backend.describe()
        finally:
            await backend.aclose()

    return asyncio.run(main())


def test_429_with_retry_after_is_waited_then_succeeds(provider: Provider) -> None:
    def respond(rec: Recorded, index: int):
        if index == 0:
            return 429, {"Retry-After": "1"}, provider.error(429, "slow down")
        return 200, {}, provider.ok

    with RecordingServer(respond) as server:
        start = time.monotonic()
        response, _ = _ask(provider, server.url, Request(parts=(TextPart("q"),)))
        elapsed = time.monotonic() - start
    assert response.text == provider.text and len(server.log) == 2
    assert elapsed >= 1.0  # the backoff alone would wait at most 0.01 s


def test_bad_request_is_not_retried_and_names_the_reason(provider: Provider) -> None:
    with (
        RecordingServer(lambda rec, i: (400, {}, provider.error(400, "image too large"))) as server,
        pytest.raises(BackendError, match="image too large"),
    ):
        _ask(provider, server.url, Request(parts=(TextPart("q"),)))
    assert len(server.log) == 1


def test_api_key_is_sent_but_never_written_to_disk(provider: Provider, tmp_path) -> None:
    frame = ImagePart(np.random.default_rng(0).integers(0, 256, (6, 8, 3), dtype=np.uint8))
    answer = (200, {}, provider.ok)
    with debug_log_to(tmp_path / "debug.log"), RecordingServer(lambda rec, i: answer) as server:
        response, described = _ask(provider, server.url, Request(parts=(frame, TextPart("q"))))
    record = {"backend": described, "raw": response.raw, "text": response.text}
    (tmp_path / "record.json").write_text(json.dumps(record))
    assert provider.key_header(server.log[0]) == provider.secret
    assert (tmp_path / "debug.log").stat().st_size > 0  # the SDK and HTTP client did log
    assert files_containing(tmp_path, provider.secret) == []


def test_missing_key_names_the_variable(provider: Provider, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(provider.key_variable)
    with pytest.raises(BackendError, match=provider.missing_key):
        load_backend(provider.hosted_name)
