import asyncio

import numpy as np
import pytest

from spatialbench.models.api import ApiSettings
from spatialbench.models.errors import BackendError
from spatialbench.models.resolve import load_backend
from spatialbench.models.retry import RetryPolicy
from spatialbench.records.messages import GenerationSettings, ImagePart, Request, TextPart
from support.openai_server import Fault, OpenAIServer, ServerScript

FAST = ApiSettings(concurrency=4, timeout_s=0.5, retry=RetryPolicy(max_attempts=4, base_delay_s=0.01))


def _ask(url: str, request: Request, settings: ApiSettings = FAST):
    async def main():
        backend = load_backend(f"openai-compatible:{url}#test-model", api=settings)
        try:
            return await backend.generate(request)
        finally:
            await backend.aclose()

    return asyncio.run(main())


def test_text_and_images_reach_server_and_answer_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
    script = ServerScript(answer=lambda text: "3" if "How many" in text else "?")
    frame = ImagePart(np.zeros((8, 8, 3), np.uint8), label="t=0.0s")
    with OpenAIServer(script) as server:
        out = _ask(server.url, Request(parts=(frame, frame, TextPart("How many chairs?")), system="sys"))
    # server counts words (sys, 2 labels, 3 of the question) plus 85 per image
    assert out.text == "3" and out.output_tokens == 1 and out.input_tokens == 6 + 170
    [logged] = script.log
    assert logged.n_images == 2 and logged.authorization == "Bearer sk-test-secret"
    assert logged.body["temperature"] == 0.0 and logged.body["max_tokens"] == 128
    assert logged.body["messages"][0] == {"role": "system", "content": "sys"}
    assert logged.body["messages"][1]["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")


def test_retries_429_500_and_timeouts_then_answers() -> None:
    faults = {0: Fault("429", retry_after=0.05), 1: Fault("500"), 2: Fault("timeout", delay_s=1.0)}
    script = ServerScript(answer=lambda text: "B", fault=lambda seen, text: faults.get(seen))
    with OpenAIServer(script) as server:
        out = _ask(server.url, Request(parts=(TextPart("q"),)))
    assert out.text == "B"
    assert [r.outcome for r in script.log] == ["429", "500", "timeout", "answered"]


def test_permanent_failure_after_attempts_is_backend_error() -> None:
    script = ServerScript(fault=lambda seen, text: Fault("500"))
    expected = "gave up after 4 attempts: HTTP 500"
    with OpenAIServer(script) as server, pytest.raises(BackendError, match=expected):
        _ask(server.url, Request(parts=(TextPart("q"),)))
    assert len(script.log) == 4


def test_settings_and_seed_are_sent() -> None:
    script = ServerScript()
    settings = GenerationSettings(
        temperature=0.7, top_p=0.9, max_new_tokens=16, seed=3, extra=(("top_k", 1),))
    with OpenAIServer(script) as server:
        _ask(server.url, Request(parts=(TextPart("q"),), settings=settings))
    body = script.log[0].body
    assert (body["temperature"], body["top_p"], body["max_tokens"], body["seed"], body["top_k"]) == (
        0.7, 0.9, 16, 3, 1)


def test_bad_spec_and_describe_has_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
    with pytest.raises(BackendError, match="BASE_URL#MODEL"):
        load_backend("openai-compatible:http://127.0.0.1:1/v1")
    backend = load_backend("openai-compatible:http://user:pw@127.0.0.1:9/v1?k=1#m")
    assert backend.describe()["base_url"] == "http://127.0.0.1:9/v1"
    assert "sk-test-secret" not in repr(backend.describe())


def test_reply_without_usage_or_content_gives_empty_text_and_none_counts() -> None:
    from spatialbench.models.openai_compat import _to_response

    out = _to_response({"choices": [{"message": {"role": "assistant", "content": None}}], "model": "m"})
    assert (out.text, out.input_tokens, out.output_tokens, out.logprobs) == ("", None, None, None)
    assert _to_response({}).text == ""
    logprobs = {"content": [{"token": "B", "logprob": -0.25}]}
    out = _to_response({"choices": [{"message": {"content": "B"}, "logprobs": logprobs}]})
    assert out.logprobs is not None and out.logprobs[0].token == "B" and out.logprobs[0].logprob == -0.25


def test_query_of_the_base_url_is_sent_with_every_request_to_the_endpoint_path() -> None:
    # newcomer, issue 10: ``/v1?api_key=K#m`` sent ``/v1/?api_key=K...chat/completions`` (path lost)
    script, paths = ServerScript(answer=lambda text: "B"), []
    with OpenAIServer(script) as server:
        handler = server._server.RequestHandlerClass

        class Recording(handler):  # type: ignore[misc, valid-type]
            def do_POST(self) -> None:
                paths.append(self.path)
                super().do_POST()

        server._server.RequestHandlerClass = Recording
        url = f"{server.url}?api_key=SEKRIT123&x-api-key=SEKRIT456"
        out = _ask(url, Request(parts=(TextPart("Which?"),)))
        backend = load_backend(f"openai-compatible:{url}#test-model")
    assert out.text == "B"
    assert paths == ["/v1/chat/completions?api_key=SEKRIT123&x-api-key=SEKRIT456"]
    assert "SEKRIT" not in repr(backend.describe())


def test_body_chunks_join_small_pieces_and_pass_large_ones_uncopied() -> None:
    """Small pieces go out joined (one socket write each chunk); a piece >= SEND_CHUNK goes alone, as is."""
    import asyncio

    from spatialbench.models.openai_compat import SEND_CHUNK, _streamed

    large = b"u" * SEND_CHUNK
    pieces = [b'{"a":', b"x" * 10, b',"b":"', large, b'","c":', b"y" * (SEND_CHUNK - 3), b"zzzz", b"}"]

    async def collect() -> list[bytes]:
        return [chunk async for chunk in _streamed(pieces)]

    chunks = asyncio.run(collect())
    assert b"".join(chunks) == b"".join(pieces)
    # [3 small] [large, uncopied] [',"c":' + y-run reaches the size] ['zzzz}']
    assert [len(c) for c in chunks] == [5 + 10 + 6, SEND_CHUNK, 6 + SEND_CHUNK - 3, 5]
    assert chunks[1] is large
