"""The gemini back end through the official google-genai SDK against a loopback generateContent server."""

import asyncio
import base64
import io

import numpy as np
import pytest

from spatialbench.models.api import ApiSettings
from spatialbench.models.resolve import load_backend
from spatialbench.models.retry import RetryPolicy
from spatialbench.records.messages import GenerationSettings, ImagePart, Request, TextPart
from support.recording_server import RecordingServer

SECRET = "gem-test-secret-7f3a"
FAST = ApiSettings(timeout_s=5.0, retry=RetryPolicy(max_attempts=3, base_delay_s=0.01))
OK = {
    "candidates": [{"content": {"role": "model", "parts": [{"text": "B"}]}, "finishReason": "STOP"}],
    "usageMetadata": {
        "promptTokenCount": 530,
        "candidatesTokenCount": 1,
        "thoughtsTokenCount": 12,
        "totalTokenCount": 543,
    },
    "modelVersion": "gemini-test-001",
}


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.setenv("GEMINI_API_KEY", SECRET)


def _frames() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.integers(0, 256, (6, 8, 3), dtype=np.uint8) for _ in range(2)]


def _ask(url: str, request: Request):
    async def main():
        backend = load_backend("gemini:gemini-test", api=FAST, base_url=url)
        try:
            return await backend.generate(request), backend.describe()
        finally:
            await backend.aclose()

    return asyncio.run(main())


def _decode_png(data: str) -> np.ndarray:
    from PIL import Image

    # proto JSON bytes: the SDK writes URL-safe base64; the API reads either alphabet
    raw = base64.b64decode(data.replace("-", "+").replace("_", "/"))
    return np.asarray(Image.open(io.BytesIO(raw)).convert("RGB"))


def test_images_arrive_as_inline_parts_and_usage_is_mapped() -> None:
    frames = _frames()
    request = Request(
        parts=(ImagePart(frames[0], label="Frame 1"), ImagePart(frames[1]), TextPart("Which is closer?")),
        system="Answer with the option's letter.",
        settings=GenerationSettings(max_new_tokens=16),
    )
    with RecordingServer(lambda rec, i: (200, {}, OK)) as server:
        response, _ = _ask(server.url, request)
    [rec] = server.log
    assert rec.path == "/v1/models/gemini-test:generateContent"  # SDK default api_version
    [content] = rec.body["contents"]
    parts = content["parts"]
    assert (
        content["role"] == "user"
        and parts[0] == {"text": "Frame 1"}
        and parts[3] == {"text": "Which is closer?"}
    )
    for part, frame in zip((parts[1], parts[2]), frames, strict=True):
        inline = part["inlineData"]  # proto JSON: the API accepts mimeType or mime_type
        assert inline.get("mimeType", inline.get("mime_type")) == "image/png"
        np.testing.assert_array_equal(_decode_png(inline["data"]), frame)
    assert rec.body["systemInstruction"]["parts"] == [{"text": "Answer with the option's letter."}]
    assert rec.body["generationConfig"] == {"temperature": 0.0, "topP": 1.0, "maxOutputTokens": 16}
    assert (response.text, response.input_tokens, response.output_tokens) == ("B", 530, 1 + 12)
    assert response.raw == {
        "finish_reason": "STOP",
        "block_reason": None,
        "thoughts_tokens": 12,
        "model": "gemini-test-001",
    }


def test_logprobs_seed_and_extra_settings_are_sent_and_mapped() -> None:
    chosen = [{"token": "B", "logProbability": -0.25, "tokenId": 33}]
    reply = {**OK, "candidates": [{**OK["candidates"][0], "logprobsResult": {"chosenCandidates": chosen}}]}
    settings = GenerationSettings(temperature=0.5, top_p=0.9, seed=7, logprobs=True, extra=(("top_k", 3),))
    with RecordingServer(lambda rec, i: (200, {}, reply)) as server:
        response, _ = _ask(server.url, Request(parts=(TextPart("q"),), settings=settings))
    config = server.log[0].body["generationConfig"]
    assert (config["temperature"], config["topP"], config["seed"], config["topK"]) == (0.5, 0.9, 7, 3)
    assert config["responseLogprobs"] is True
    assert [(t.token, t.logprob) for t in response.logprobs] == [("B", -0.25)]
