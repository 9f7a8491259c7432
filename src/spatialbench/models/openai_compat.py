"""OpenAI chat-completions back end via the official ``openai`` client (async).

Covers OpenAI itself (``openai:gpt-4o``) and every OpenAI-compatible server — vLLM, SGLang, LMDeploy, Ollama,
gateways — as ``openai-compatible:BASE_URL#MODEL``. Images go as base64 data URLs in ``image_url`` parts; an
image's label, when set, is a text part right before it. A conversation goes as its turns in order
(assistant turns as plain strings); ``top_k`` is sent to OpenAI-compatible servers only (OpenAI's API has
no such parameter). The SDK's own retries are off: the shared policy of
:mod:`spatialbench.models.api` is the only one. The API key comes from the environment
(``OPENAI_API_KEY`` or the variable named by ``api_key_env``) and is never recorded.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from spatialbench.models.api import ApiBackend, ApiSettings, check_base_url
from spatialbench.models.errors import BackendError, RetryableError
from spatialbench.models.images import image_data_url_bytes, request_pieces
from spatialbench.models.parts import map_parts
from spatialbench.models.provider import ProviderBackend
from spatialbench.models.retry import classify_sdk_error
from spatialbench.records.messages import ImagePart, Part, Request, Response, TextPart, TokenLogprob
from spatialbench.records.redaction import remember_url_secrets


class OpenAIChatBackend(ProviderBackend):
    """Chat completions against ``base_url`` (None = OpenAI) for ``model``.

    Args:
        model: the served model name.
        base_url: API root such as ``http://127.0.0.1:8000/v1``; a query in it (``?api_key=K``) goes with
            every request, after the endpoint path.
        api_key_env: environment variable holding the key; a missing key is sent as ``"EMPTY"`` to
            self-hosted servers and is an error for OpenAI itself.
        settings: shared transport settings.

    Raises:
        BackendError: OpenAI itself (no ``base_url``) and no key in ``api_key_env``.
    """

    label = "OpenAI"
    sdk = "openai"
    sdk_package = "openai"

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        settings: ApiSettings | None = None,
        seed: int | None = None,
    ) -> None:
        self.provider = "openai" if base_url is None else "openai-compatible"
        self.key_variables = (api_key_env,)
        self.key_required = base_url is None
        super().__init__(model, base_url, settings, seed)

    def _connect(self, key: str | None) -> Any:
        base_url, query = _split_query(self.base_url)
        return self._sdk.AsyncOpenAI(
            api_key=key or "EMPTY", base_url=base_url, default_query=query, max_retries=0,
            timeout=self.settings.timeout_s,
        )

    def _content(self, parts: tuple[Part, ...]) -> list[dict[str, Any]]:
        fmt, quality = self.settings.image_format, self.settings.jpeg_quality

        def image(part: ImagePart) -> dict[str, Any]:
            url = image_data_url_bytes(part.pixels, fmt, quality)
            return {"type": "image_url", "image_url": {"url": url}}

        return map_parts(parts, lambda text: {"type": "text", "text": text}, image)

    def _messages(self, request: Request) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = []
        if request.system:
            messages.append({"role": "system", "content": request.system})
        for role, parts in request.turns:
            if role == "assistant" and all(isinstance(p, TextPart) for p in parts):
                messages.append({"role": role, "content": "".join(p.text for p in parts)})  # type: ignore[union-attr]
            else:
                messages.append({"role": role, "content": self._content(parts)})
        return messages

    def _body(self, request: Request) -> list[bytes]:
        """Return the chat-completions request body, serialised in pieces (each image a data URL piece)."""
        s = request.settings
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": self._messages(request),
            "temperature": s.temperature,
            "top_p": s.top_p,
            "max_tokens": s.max_new_tokens,
        }
        if s.seed is not None:
            kwargs["seed"] = s.seed
        if s.top_k is not None and self.base_url is not None:  # vLLM, SGLang, LMDeploy; OpenAI has none
            kwargs["top_k"] = s.top_k
        if s.logprobs:
            kwargs["logprobs"] = True
        kwargs.update(dict(s.extra))
        return request_pieces(kwargs)

    def _build(self, request: Request) -> list[bytes]:
        return self._body(request)  # before the concurrency slot (ApiBackend.generate)

    async def _send(self, request: Request) -> Response:
        return await self._send_built(request, await self._prepared(self._body, request))

    async def _send_built(self, request: Request, body: list[bytes]) -> Response:
        # ``client.post`` (the SDK's documented route for raw requests) sends the body as built here:
        # ``chat.completions.create`` would first walk every message part through its TypedDict transform,
        # ~1.8 ms of event-loop time per request with 4 images, which alone costs ~15 % of throughput at
        # concurrency 16. The reply is read as plain JSON, which also tolerates servers whose replies stray
        # from the schema (missing usage, null content).
        # The body goes piece by piece (cached data URLs, never joined) with its Content-Length: see
        # request_pieces for what a joined copy per request cost at concurrency 16.
        length = {"Content-Length": str(sum(map(len, body)))}
        try:
            completion = await self._client.post(
                "/chat/completions", content=_streamed(body), cast_to=object, options={"headers": length}
            )
        except json.JSONDecodeError as exc:  # a proxy's HTML page, a broken server: permanent, say so
            raise _unreadable_reply("non-JSON", exc.doc) from None
        if isinstance(completion, str) and completion.lstrip()[:1] == "<":  # the SDK's text of text/html
            raise _html_reply(completion, self.base_url)
        if not isinstance(completion, dict):
            raise _unreadable_reply("JSON that is not an object", str(completion))
        return _to_response(completion)

    def _classify(self, exc: Exception) -> RetryableError | None:
        return classify_sdk_error(exc, self._sdk)

    def describe(self) -> dict[str, Any]:
        """Return the provider's settings, and whether a strategy's ``top_k`` reaches the model."""
        top_k = "sent" if self.base_url is not None else "not sent (the OpenAI API has no top-k)"
        return {**super().describe(), "top_k": top_k}


#: body pieces shorter than this are joined with their neighbours before they are sent
SEND_CHUNK = 256 * 1024


async def _streamed(pieces: list[bytes]) -> AsyncIterator[bytes]:
    """Yield a request body in chunks (an async iterable, as the SDK's async client sends content).

    Small pieces (text, small images' data URLs) are joined up to :data:`SEND_CHUNK` bytes; a piece that
    large goes alone, uncopied. Each chunk is one socket write through httpx and anyio (~0.1 ms of
    event-loop time): sent piece by piece, a request with 8 small images took ~18 writes, ~2 ms of loop
    time, and 16 answers arriving together then waited their turn (86 % of the ideal throughput at 200 ms
    and concurrency 16; ``bench/inflight.py``).
    """
    run: list[bytes] = []
    size = 0
    for piece in pieces:
        if len(piece) >= SEND_CHUNK:
            if run:
                yield b"".join(run)
                run, size = [], 0
            yield piece
            continue
        run.append(piece)
        size += len(piece)
        if size >= SEND_CHUNK:
            yield b"".join(run)
            run, size = [], 0
    if run:
        yield b"".join(run)


def _split_query(url: str | None) -> tuple[str | None, dict[str, str] | None]:
    """Split ``http://host/v1?api_key=K`` into the base URL and its query, sent with every request.

    The SDK joins endpoint paths onto the base URL as text, so a query left in it would swallow the path
    (``/v1/?api_key=Kchat/completions``); as the client's default query it goes after the path instead.
    """
    if url is None:
        return None, None
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    return urlunsplit(parts._replace(query="")), query or None


def _unreadable_reply(what: str, body: str) -> BackendError:
    """Return the error for a 200 reply that is not a chat completion, quoting its first bytes (redacted)."""
    from spatialbench.records.redaction import redact  # a leaf module; lazy keeps models/ free of runs/

    return BackendError(f"server replied with {what}: {redact(body[:120])!r}")


def _html_reply(page: str, base_url: str | None) -> BackendError:
    """Return the error for a web page where a completion was due: most often a wrong base URL."""
    from spatialbench.records.redaction import redact

    where = f"is the base URL {base_url} right? (an OpenAI-compatible server's usually ends in /v1)"
    return BackendError(f"the endpoint returned an HTML page, not a chat completion: {redact(page[:80])!r}; "
                        f"{where if base_url else 'is a proxy in the way?'}")


def _to_response(completion: dict[str, Any]) -> Response:
    """Turn a chat-completion JSON object into a Response; never raises on a malformed reply.

    The reply is untrusted: missing or malformed fields give empty text / None counts (a token count must
    be a finite non-negative integer), content given as a list of parts is its text parts joined, and a
    200 reply holding only ``{"error": ...}`` is a BackendError naming the server's message.
    """
    error = completion.get("error")
    if error and not completion.get("choices"):
        message = error.get("message") if isinstance(error, dict) else error
        raise BackendError(f"the server replied with an error: {str(message)[:200]!r}")
    choices = completion.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    message = choice.get("message")
    text = _text_of(message.get("content") if isinstance(message, dict) else None)
    usage = completion.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    return Response(
        text=text,
        input_tokens=_count(usage.get("prompt_tokens")),
        output_tokens=_count(usage.get("completion_tokens")),
        logprobs=_logprobs(choice.get("logprobs")),
        raw={"finish_reason": choice.get("finish_reason"), "model": completion.get("model")},
    )


def _text_of(content: object) -> str:
    """Return the reply text: a string, or the text parts of a list joined (other parts skipped)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def _count(value: object) -> int | None:
    """Return a token count the server gave when it is a non-negative integer, else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _logprobs(block: object) -> tuple[TokenLogprob, ...] | None:
    tokens = block.get("content") if isinstance(block, dict) else None
    if not isinstance(tokens, list):
        return None
    try:
        return tuple(TokenLogprob(str(t["token"]), float(t["logprob"])) for t in tokens) or None
    except (TypeError, KeyError, ValueError):  # a malformed entry: no log-probabilities, not a failed item
        return None


def make_openai(
    model: str, *, api: ApiSettings | None = None, seed: int | None = None, **options: Any
) -> ApiBackend:
    """``openai:MODEL`` — OpenAI's API; key from ``OPENAI_API_KEY`` (or ``api_key_env``)."""
    return OpenAIChatBackend(model, None, settings=api, seed=seed, **options)


def make_openai_compatible(
    spec: str, *, api: ApiSettings | None = None, seed: int | None = None, **options: Any
) -> ApiBackend:
    """``openai-compatible:BASE_URL#MODEL``.

    Raises:
        BackendError: ``spec`` lacks ``#MODEL``, or BASE_URL is not an http(s) URL with a host.
    """
    base_url, sep, model = spec.rpartition("#")
    if not sep or not base_url or not model:
        raise BackendError(f"expected openai-compatible:BASE_URL#MODEL, got {spec!r}")
    check_base_url(base_url)  # http(s), a host, a valid port and brackets: one line naming the URL
    remember_url_secrets(base_url)  # a server may echo a ?api_key= value in its error text
    return OpenAIChatBackend(model, base_url, settings=api, seed=seed, **options)
