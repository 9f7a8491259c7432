"""Back-end set-up checks, the connection circuit breaker and non-JSON replies."""

import asyncio
import json
import socket

import numpy as np
import pytest

from spatialbench.models.api import ApiSettings
from spatialbench.models.errors import BackendError, EndpointUnreachableError, RetryableError
from spatialbench.models.resolve import load_backend
from spatialbench.models.retry import ConnectionBreaker, RetryPolicy, call_with_retries
from spatialbench.records.messages import Request, Response, TextPart
from support.openai_server import OpenAIServer, ServerScript

FAST = ApiSettings(concurrency=2, timeout_s=2.0, retry=RetryPolicy(max_attempts=3, base_delay_s=0.01))


def _ask(url: str, n: int = 1) -> list[Response | BaseException]:
    async def main():
        backend = load_backend(f"openai-compatible:{url}#m", api=FAST)
        try:
            request = Request(parts=(TextPart("hi"),))
            return await asyncio.gather(
                *(backend.generate(request) for _ in range(n)), return_exceptions=True
            )
        finally:
            await backend.aclose()

    return asyncio.run(main())


@pytest.mark.parametrize("spec", ["notaurl#m", "ftp://host/v1#m", "http://#m"])
def test_openai_compatible_url_is_checked_when_resolved(spec: str) -> None:
    with pytest.raises(BackendError, match="not an http\\(s\\) URL"):
        load_backend(f"openai-compatible:{spec}")


def test_missing_local_hf_folder_fails_when_the_back_end_is_created(tmp_path) -> None:
    with pytest.raises(BackendError, match=f"hf model folder {tmp_path / 'nowhere'} does not exist"):
        load_backend(f"hf:{tmp_path / 'nowhere'}")


def test_non_json_reply_names_the_first_bytes_redacted(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "tok-abcdefgh-secret")
    script = ServerScript(answer=lambda text: b"<html>oops tok-abcdefgh-secret</html>")
    with OpenAIServer(script) as server:
        [outcome] = _ask(server.url)
    assert isinstance(outcome, BackendError) and not isinstance(outcome, RetryableError)
    assert "server replied with non-JSON" in str(outcome) and "<html>oops ***</html>" in str(outcome)
    assert "tok-abcdefgh" not in str(outcome)


def test_breaker_opens_after_consecutive_connection_failures_at_the_start() -> None:
    breaker = ConnectionBreaker(threshold=3)
    calls: list[int] = []

    async def refused() -> Response:
        calls.append(1)
        raise RetryableError("connection refused", connection=True)

    async def no_sleep(seconds: float) -> None:
        return None

    async def one() -> Response:
        return await call_with_retries(
            refused,
            policy=RetryPolicy(max_attempts=10),
            timeout_s=None,
            classify=lambda e: None,
            rng=np.random.default_rng(0),
            sleep=no_sleep,
            breaker=breaker,
        )

    with pytest.raises(EndpointUnreachableError, match="3 consecutive connection failures"):
        asyncio.run(one())
    assert len(calls) == 3
    with pytest.raises(EndpointUnreachableError):  # open: nothing more is sent
        asyncio.run(one())
    assert len(calls) == 3


def test_breaker_disarms_after_the_first_success() -> None:
    breaker = ConnectionBreaker(threshold=2)
    breaker.record(None)
    for _ in range(5):
        breaker.record(RetryableError("refused", connection=True))
    assert not breaker.open


def test_unreachable_endpoint_trips_the_breaker_of_the_openai_back_end() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    outcomes = _ask(f"http://127.0.0.1:{port}/v1", n=6)
    assert all(isinstance(o, EndpointUnreachableError) for o in outcomes), outcomes


@pytest.mark.parametrize(
    ("name", "key"), [("gemini:g", "GEMINI_API_KEY"), ("anthropic:c", "ANTHROPIC_API_KEY")]
)
def test_unreachable_endpoint_trips_the_breaker_of_every_sdk_back_end(name, key, monkeypatch) -> None:
    pytest.importorskip("google.genai" if name.startswith("gemini") else "anthropic")
    monkeypatch.setenv(key, "test-key-123456")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def main():
        backend = load_backend(name, api=FAST, base_url=f"http://127.0.0.1:{port}")
        try:
            request = Request(parts=(TextPart("hi"),))
            return await asyncio.gather(
                *(backend.generate(request) for _ in range(6)), return_exceptions=True
            )
        finally:
            await backend.aclose()

    outcomes = asyncio.run(main())
    assert all(isinstance(o, EndpointUnreachableError) for o in outcomes), outcomes


def test_an_html_page_is_named_with_its_first_bytes_and_a_base_url_hint() -> None:
    """Issue 26: a web page at the base URL (text/html, 200) was called "JSON that is not an object"."""
    page = b"<!DOCTYPE html>\n<html><head><title>Open WebUI</title></head><body>" + b"x" * 200 + b"</body>"
    script = ServerScript(answer=lambda text: page, raw_type="text/html; charset=utf-8")
    with OpenAIServer(script) as server:
        [outcome] = _ask(server.url)
    assert isinstance(outcome, BackendError) and not isinstance(outcome, RetryableError)
    assert str(outcome) == (
        f"the endpoint returned an HTML page, not a chat completion: {page[:80].decode()!r}; is the base URL "
        f"{server.url} right? (an OpenAI-compatible server's usually ends in /v1)")


def _reply(body: dict) -> Response | BaseException:
    script = ServerScript(answer=lambda text: json.dumps(body).encode())
    with OpenAIServer(script) as server:
        [outcome] = _ask(server.url)
    return outcome


@pytest.mark.parametrize("usage", [{"prompt_tokens": "lots", "completion_tokens": -5}, "none",
                                   {"prompt_tokens": 1e400, "completion_tokens": 2.5}, [3, 4]])
def test_untrusted_usage_counts_are_dropped_not_added(usage) -> None:
    # issue 26 (newcomer round): "prompt_tokens": "lots" crashed the run's progress count with a TypeError
    # on every re-run, and "usage": "none" failed every item with an AttributeError
    outcome = _reply({"choices": [{"message": {"role": "assistant", "content": "4"}}], "usage": usage})
    assert isinstance(outcome, Response) and outcome.text == "4"
    assert (outcome.input_tokens, outcome.output_tokens) == (None, None)


def test_content_given_as_text_parts_is_joined_and_a_200_error_object_is_named() -> None:
    parts = [{"type": "text", "text": "the answer is "}, {"type": "image_url"}, {"type": "text", "text": "4"}]
    outcome = _reply({"choices": [{"message": {"content": parts}}], "usage": {"prompt_tokens": 7}})
    assert isinstance(outcome, Response) and outcome.text == "the answer is 4" and outcome.input_tokens == 7
    outcome = _reply({"error": {"message": "model not found"}})
    assert isinstance(outcome, BackendError) and "model not found" in str(outcome)
    odd = _reply({"choices": "nope", "usage": {}})  # a malformed body is empty text, never a crash
    assert isinstance(odd, Response) and odd.text == ""


def test_a_url_query_key_echoed_by_the_server_is_redacted() -> None:
    # issue 26 (newcomer round): a 401 body quoting "?api_key=QSECRET999" reached stderr and run.sqlite
    from spatialbench.records.redaction import redact

    load_backend("openai-compatible:http://127.0.0.1:9/v1?api_key=QSECRET999#m", api=FAST)
    assert redact("Incorrect API key provided: QSECRET999") == "Incorrect API key provided: ***"
