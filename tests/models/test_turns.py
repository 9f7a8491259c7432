"""Conversations of turns through every back end's wire format: media once, turns in order, top-k sent."""

import asyncio

import numpy as np
import pytest

from spatialbench.models.api import ApiSettings
from spatialbench.models.errors import TooManyImagesError
from spatialbench.models.hf import generation_options
from spatialbench.models.hf_messages import chat_inputs
from spatialbench.models.images import ImageOverflow, limit_images
from spatialbench.models.resolve import load_backend
from spatialbench.models.retry import RetryPolicy
from spatialbench.records.messages import GenerationSettings, ImagePart, Request, TextPart
from support.openai_server import OpenAIServer, ServerScript
from support.recording_server import Recorded, RecordingServer

FAST = ApiSettings(timeout_s=5.0, retry=RetryPolicy(max_attempts=2, base_delay_s=0.01))
SAMPLING = GenerationSettings(temperature=0.7, top_p=1.0, top_k=40, max_new_tokens=64, seed=3)


def _dialogue() -> Request:
    """Two frames and a question, the model's chain of thought, then an extraction turn (text only)."""
    frames = [np.full((4, 6, 3), k, dtype=np.uint8) for k in (10, 20)]
    first = Request(
        parts=(*map(ImagePart, frames), TextPart("How many chairs? Let's think step by step.")),
        system="be brief",
    )
    return first.followup("I see 3 chairs. The answer is 3.", (TextPart("State only the number."),), SAMPLING)


def test_followup_keeps_media_in_the_first_turn_and_counts_all_images() -> None:
    request = _dialogue()
    roles = [role for role, _ in request.turns]
    assert roles == ["user", "assistant", "user"]
    assert request.n_images == 2 and request.history[0][1][0].pixels[0, 0, 0] == 10
    assert request.parts == (TextPart("State only the number."),) and request.settings is SAMPLING
    assert request.system == "be brief"


def test_image_limit_counts_and_subsamples_images_of_every_turn() -> None:
    request = _dialogue()
    with pytest.raises(TooManyImagesError, match="2 images"):
        limit_images(request, 1, ImageOverflow.ERROR)
    kept = limit_images(request, 1, ImageOverflow.SUBSAMPLE)
    assert kept.n_images == 1 and kept.history[0][1][0].pixels[0, 0, 0] == 10  # linspace(0, 1, 1) -> 0
    assert kept.parts == request.parts and kept.history[1] == request.history[1]


def test_openai_compatible_sends_turns_in_order_with_top_k() -> None:
    script = ServerScript(answer=lambda text: "3")

    async def main(url: str) -> None:
        backend = load_backend(f"openai-compatible:{url}#m", api=FAST)
        try:
            assert (await backend.generate(_dialogue())).text == "3"
        finally:
            await backend.aclose()

    with OpenAIServer(script) as server:
        asyncio.run(main(server.url))
    body = script.log[0].body
    assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "user"]
    assert [p["type"] for p in body["messages"][1]["content"]] == ["image_url", "image_url", "text"]
    assert body["messages"][2]["content"] == "I see 3 chairs. The answer is 3."
    assert body["messages"][3]["content"] == [{"type": "text", "text": "State only the number."}]
    assert (body["temperature"], body["top_p"], body["top_k"], body["seed"]) == (0.7, 1.0, 40, 3)
    assert script.log[0].n_images == 2


def test_openai_itself_gets_no_top_k_and_says_so(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    backend = load_backend("openai:gpt-test", api=FAST)
    assert backend.describe()["top_k"].startswith("not sent")
    assert load_backend("openai-compatible:http://127.0.0.1:9/v1#m", api=FAST).describe()["top_k"] == "sent"


def _gemini_ok(recorded: Recorded, index: int):
    content = {"role": "model", "parts": [{"text": "3"}]}
    return 200, {}, {"candidates": [{"content": content, "finishReason": "STOP"}], "modelVersion": "g"}


def test_gemini_sends_turns_with_model_role_and_top_k(monkeypatch) -> None:
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.setenv("GEMINI_API_KEY", "gem-key")

    async def main(url: str) -> None:
        backend = load_backend("gemini:g", api=FAST, base_url=url)
        try:
            assert (await backend.generate(_dialogue())).text == "3"
        finally:
            await backend.aclose()

    with RecordingServer(_gemini_ok) as server:
        asyncio.run(main(server.url))
    body = server.log[0].body
    assert [c["role"] for c in body["contents"]] == ["user", "model", "user"]
    assert sum("inlineData" in p for p in body["contents"][0]["parts"]) == 2
    assert body["contents"][1]["parts"] == [{"text": "I see 3 chairs. The answer is 3."}]
    assert body["generationConfig"]["topK"] == 40


def _anthropic_ok(recorded: Recorded, index: int):
    usage = {"input_tokens": 5, "output_tokens": 1}
    message = {"id": "m", "type": "message", "role": "assistant", "model": "c", "stop_reason": "end_turn"}
    content = [{"type": "text", "text": "3"}]
    return 200, {}, {**message, "content": content, "stop_sequence": None, "usage": usage}


def test_anthropic_sends_turns_in_order(monkeypatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "ant-key")

    async def main(url: str) -> None:
        backend = load_backend("anthropic:c", api=FAST, base_url=url)
        try:
            assert (await backend.generate(_dialogue())).text == "3"
        finally:
            await backend.aclose()

    with RecordingServer(_anthropic_ok) as server:
        asyncio.run(main(server.url))
    body = server.log[0].body
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert [b["type"] for b in body["messages"][0]["content"]] == ["image", "image", "text"]
    assert body["messages"][2]["content"] == [{"type": "text", "text": "State only the number."}]


def test_hf_chat_inputs_keep_turns_and_sampling_uses_top_k() -> None:
    chat = chat_inputs(_dialogue())
    assert [m["role"] for m in chat.messages] == ["system", "user", "assistant", "user"]
    assert len(chat.images) == 2
    options = generation_options(SAMPLING)
    assert (options["do_sample"], options["temperature"], options["top_k"]) == (True, 0.7, 40)
    assert generation_options(GenerationSettings())["do_sample"] is False
