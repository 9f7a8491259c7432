"""The bytes of a request body are those main sent before issue 25's changes (pinned by digest).

A fixed request (system prompt, text, a labelled image, two images, a non-ASCII text, settings with a
seed) goes to the loopback server through the OpenAI-compatible back end; the body received must equal,
byte for byte, the compact JSON of the chat-completions payload with each image's PNG data URL (built
here independently, with imagecodecs and base64), and hash to the digest main's code (02a52b7) sent.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json

import imagecodecs
import numpy as np

from spatialbench.models.openai_compat import OpenAIChatBackend
from spatialbench.records.messages import GenerationSettings, ImagePart, Request, TextPart
from support.openai_server import OpenAIServer, ServerScript

#: sha256 of the body main (02a52b7) sent for REQUEST
MAIN_BODY_SHA256 = "0b30eb8b7e35d8276e830627fefb9afeb8e6f3fb7320f0bffa13f7cedb0de4d2"


def _frames() -> list[np.ndarray]:
    rng = np.random.default_rng(25)
    return [rng.integers(0, 256, (48 + 8 * k, 64, 3), dtype=np.uint8) for k in range(3)]


def _request() -> Request:
    a, b, c = _frames()
    parts = (TextPart("Frames of a room, in order:"), ImagePart(a, label="Frame 1:"), ImagePart(b),
             ImagePart(c), TextPart("How many chair(s) are in this room? Réponds «vite» \"now\".\n"))
    return Request(parts=parts, system="You are a careful assistant.",
                   settings=GenerationSettings(temperature=0.0, max_new_tokens=16, seed=7))


def _url(pixels: np.ndarray) -> str:
    png = bytes(imagecodecs.png_encode(pixels, 1, filter=imagecodecs.PNG.FILTER.UP))
    return "data:image/png;base64," + base64.b64encode(png).decode()


def _expected(model: str) -> bytes:
    a, b, c = _frames()
    content = [
        {"type": "text", "text": "Frames of a room, in order:"},
        {"type": "text", "text": "Frame 1:"},
        {"type": "image_url", "image_url": {"url": _url(a)}},
        {"type": "image_url", "image_url": {"url": _url(b)}},
        {"type": "image_url", "image_url": {"url": _url(c)}},
        {"type": "text", "text": "How many chair(s) are in this room? Réponds «vite» \"now\".\n"},
    ]
    payload = {
        "model": model,
        "messages": [{"role": "system", "content": "You are a careful assistant."},
                     {"role": "user", "content": content}],
        "temperature": 0.0, "top_p": 1.0, "max_tokens": 16, "seed": 7,
    }
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def test_the_body_sent_is_byte_identical_to_mains() -> None:
    script = ServerScript(keep_raw=True)
    with OpenAIServer(script) as server:
        backend = OpenAIChatBackend("m", server.url)

        async def ask() -> None:
            await backend.generate(_request())
            await backend.generate(_request())  # cached encodings: the same bytes again
            await backend.aclose()

        asyncio.run(ask())
    first, second = script.raw
    assert first == second == _expected("m")
    assert hashlib.sha256(first).hexdigest() == MAIN_BODY_SHA256
