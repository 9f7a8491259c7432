"""Google Gemini back end via the official ``google-genai`` SDK (async), provider ``gemini``.

``gemini:gemini-2.5-pro``. The key comes from ``GOOGLE_API_KEY`` or ``GEMINI_API_KEY`` (the SDK's own
order: ``GOOGLE_API_KEY`` wins when both are set) and is never recorded. Images go as inline parts
(``inlineData``, PNG or JPEG per :class:`~spatialbench.models.api.ApiSettings`), an image's label as a
text part right before it; history turns keep their order (``assistant`` → Gemini's ``model`` role).
The SDK's own retries are off (one attempt), so the shared policy of :mod:`spatialbench.models.api` is the
only one. ``top_k`` goes as ``GenerateContentConfig.top_k`` (None: not sent); ``GenerationSettings.extra``
entries go to ``GenerateContentConfig`` unchanged (over the fields above).
Output tokens include thinking tokens (``thoughtsTokenCount``, billed as output); ``raw`` keeps both.
Option ``base_url`` points the client at another endpoint (a proxy, or a test server).
"""

from __future__ import annotations

from typing import Any

from spatialbench.models.api import ApiSettings
from spatialbench.models.errors import RetryableError
from spatialbench.models.images import encode_image
from spatialbench.models.parts import map_parts
from spatialbench.models.provider import ProviderBackend
from spatialbench.models.retry import is_retryable_status, retry_after_from_headers
from spatialbench.records.messages import ImagePart, Part, Request, Response, TokenLogprob

#: Gemini API limit on images in one request (ai.google.dev, "image understanding": 3,600 per request).
GEMINI_MAX_IMAGES = 3600
KEY_VARIABLES = ("GOOGLE_API_KEY", "GEMINI_API_KEY")


class GeminiBackend(ProviderBackend):
    """``generateContent`` for ``model``.

    Args:
        model: e.g. ``gemini-2.5-flash``.
        base_url: endpoint root (None = Google's); ``api_version`` e.g. ``v1beta`` (None = SDK default).
        settings: shared transport settings; ``max_images`` defaults to :data:`GEMINI_MAX_IMAGES`.

    Raises:
        ProviderUnavailableError: ``google-genai`` is not installed.
        BackendError: no API key in the environment.
    """

    provider = "gemini"
    label = "Gemini"
    sdk = "google.genai"
    sdk_package = "google-genai"
    image_form = "bytes"
    key_variables = KEY_VARIABLES
    default_max_images = GEMINI_MAX_IMAGES

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_version: str | None = None,
        settings: ApiSettings | None = None,
        seed: int | None = None,
    ) -> None:
        self.api_version = api_version
        super().__init__(model, base_url, settings, seed)

    def _connect(self, key: str | None) -> Any:
        types = self._sdk.types
        http = types.HttpOptions(
            base_url=self.base_url,
            api_version=self.api_version,
            timeout=int(self.settings.timeout_s * 1000),  # milliseconds
            retry_options=types.HttpRetryOptions(attempts=1),
        )
        # the async client alone (the SDK's documented ``Client(...).aio``): closed by ``aclose()``
        return self._sdk.Client(api_key=key, vertexai=False, http_options=http).aio

    def _parts(self, parts: tuple[Part, ...]) -> list[Any]:
        types, s = self._sdk.types, self.settings

        def image(part: ImagePart) -> Any:
            data = encode_image(part.pixels, s.image_format, s.jpeg_quality)
            return types.Part.from_bytes(data=data, mime_type=f"image/{s.image_format.value}")

        return map_parts(parts, lambda text: types.Part(text=text), image)

    def _contents(self, request: Request) -> list[Any]:
        content = self._sdk.types.Content
        return [
            content(role="model" if role == "assistant" else role, parts=self._parts(parts))
            for role, parts in request.turns
        ]

    async def _send(self, request: Request) -> Response:
        s = request.settings
        fields = {
            "system_instruction": request.system,
            "temperature": s.temperature,
            "top_p": s.top_p,
            "top_k": s.top_k,
            "max_output_tokens": s.max_new_tokens,
            "seed": s.seed,
            "response_logprobs": s.logprobs or None,
        }
        config = self._sdk.types.GenerateContentConfig(**{**fields, **dict(s.extra)})  # extra wins
        contents = await self._prepared(self._contents, request)  # off the loop when large
        reply = await self._client.models.generate_content(model=self.model, contents=contents, config=config)
        return _to_response(reply)

    def _classify(self, exc: Exception) -> RetryableError | None:
        if isinstance(exc, self._sdk.errors.APIError) and is_retryable_status(exc.code):
            wait = retry_after_from_headers(getattr(exc.response, "headers", None))
            return RetryableError(f"HTTP {exc.code}: {exc.message}", retry_after=wait)
        names = {cls.__name__ for cls in type(exc).__mro__}
        if "TransportError" in names or "ClientConnectionError" in names:
            # httpx / httpx2 connection, read and timeout failures, or aiohttp's when it is installed (the
            # SDK's async client then uses it); a refused connection or DNS failure (httpx ConnectError,
            # aiohttp ClientConnectorError) feeds the circuit breaker of api.py
            unreachable = "ConnectError" in names or "ClientConnectorError" in names
            return RetryableError(f"{type(exc).__name__}: {exc}", connection=unreachable)
        return None


def _to_response(reply: Any) -> Response:
    """Turn a GenerateContentResponse into a Response; no candidate (blocked) gives empty text."""
    candidate = reply.candidates[0] if reply.candidates else None
    parts = (candidate.content.parts if candidate and candidate.content else None) or []
    text = "".join(p.text for p in parts if p.text and not p.thought)
    usage = reply.usage_metadata
    thoughts = (usage.thoughts_token_count or 0) if usage else 0
    output = usage.candidates_token_count if usage else None
    logprobs = None
    if candidate is not None and candidate.logprobs_result is not None:
        chosen = candidate.logprobs_result.chosen_candidates or []
        logprobs = tuple(TokenLogprob(c.token or "", float(c.log_probability or 0.0)) for c in chosen)
    feedback = reply.prompt_feedback
    return Response(
        text=text,
        input_tokens=usage.prompt_token_count if usage else None,
        output_tokens=None if output is None else output + thoughts,
        logprobs=logprobs,
        raw={
            "finish_reason": _enum_value(candidate.finish_reason if candidate else None),
            "block_reason": _enum_value(feedback.block_reason if feedback else None),
            "thoughts_tokens": thoughts,
            "model": reply.model_version,
        },
    )


def _enum_value(value: Any) -> str | None:
    return None if value is None else str(getattr(value, "value", value))


#: the ``gemini`` factory of BACKENDS: ``gemini:MODEL``, options ``base_url``, ``api_version``.
make_gemini = GeminiBackend.from_model_part
