"""The anthropic back end through the official SDK against a loopback Messages API server."""

import asyncio
import base64
import io

import numpy as np
import pytest

from spatialbench.models.api import ApiSettings
from spatialbench.models.errors import TooManyImagesError
from spatialbench.models.resolve import load_backend
from spatialbench.models.retry import RetryPolicy
from spatialbench.records.messages import GenerationSettings, ImagePart, Request, TextPart
from support.recording_server import RecordingServer

SECRET = "sk-ant-test-secret-91c2"
FAST = ApiSettings(timeout_s=5.0, retry=RetryPolicy(max_attempts=3, base_delay_s=0.01))
OK = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-test-20990101",
    "content": [{"type": "thinking", "thinking": "hmm", "signature": "s"}, {"type": "text", "text": "2.5"}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 400,
        "output_tokens": 7,
        "cache_read_input_tokens": 100,
        "cache_creation_input_tokens": 0,
    },
}


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", SECRET)
    for name in ("ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_PROFILE"):
        monkeypatch.delenv(name, raising=False)


def _frames() -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    return [rng.integers(0, 256, (6, 8, 3), dtype=np.uint8) for _ in range(2)]


def _ask(url: str, request: Request, settings: ApiSettings = FAST):
    async def main():
        backend = load_backend("anthropic:claude-test", api=settings, base_url=url)
        try:
            return await backend.generate(request), backend.describe()
        finally:
            await backend.aclose()

    return asyncio.run(main())


def _decode_png(data: str) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB"))


def test_images_arrive_as_image_blocks_and_usage_is_mapped() -> None:
    frames = _frames()
    request = Request(
        parts=(ImagePart(frames[0], label="Frame 1"), ImagePart(frames[1]), TextPart("How far apart?")),
        system="Do not respond with anything other than a single number!",
        settings=GenerationSettings(max_new_tokens=32),
        history=(("user", (TextPart("earlier"),)), ("assistant", (TextPart("ok"),))),
    )
    with RecordingServer(lambda rec, i: (200, {}, OK)) as server:
        response, _ = _ask(server.url, request)
    [rec] = server.log
    assert rec.path == "/v1/messages" and rec.headers["anthropic-version"]
    body = rec.body
    assert (body["model"], body["max_tokens"]) == ("claude-test", 32)
    # API 2026-10-21 rejects any sampling parameter; the run records that the provider's sampling applied
    assert not {"temperature", "top_p", "top_k"} & set(body)
    assert body["system"] == "Do not respond with anything other than a single number!"
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    blocks = body["messages"][-1]["content"]
    assert [b["type"] for b in blocks] == ["text", "image", "image", "text"]
    assert blocks[0]["text"] == "Frame 1" and blocks[3]["text"] == "How far apart?"
    for block, frame in zip(blocks[1:3], frames, strict=True):
        assert block["source"]["type"] == "base64" and block["source"]["media_type"] == "image/png"
        np.testing.assert_array_equal(_decode_png(block["source"]["data"]), frame)
    assert (response.text, response.input_tokens, response.output_tokens) == ("2.5", 400 + 100, 7)
    assert response.logprobs is None and response.raw["finish_reason"] == "end_turn"
    assert response.raw["sampling"] == "provider default"




def test_overloaded_529_is_retried() -> None:  # 429 / 400 / keys: test_hosted_provider_errors.py
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}
    with RecordingServer(lambda rec, i: (529, {}, overloaded) if i == 0 else (200, {}, OK)) as server:
        assert _ask(server.url, Request(parts=(TextPart("q"),)))[0].text == "2.5"
    assert len(server.log) == 2


def test_default_image_limit_is_the_api_limit() -> None:
    frame = ImagePart(np.zeros((2, 2, 3), np.uint8))
    with pytest.raises(TooManyImagesError, match="allows 100"):
        _ask("http://127.0.0.1:9", Request(parts=(frame,) * 101))
