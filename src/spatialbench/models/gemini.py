"""Google Gemini back end via the official ``google-genai`` SDK (async), provider ``gemini``.

``gemini:gemini-2.5-pro``. The key comes from ``GOOGLE_API_KEY`` or ``GEMINI_API_KEY`` (the SDK's own
order: ``GOOGLE_API_KEY`` wins when both are set) and is never recorded. Images go as inline parts
(``inlineData``, PNG or JPEG per :class:`~spatialbench.models.api.ApiSettings`), an image's label as a
text part right before it; history turns keep their order (``assistant`` → Gemini's ``model`` role).
The SDK's own retries are off (one attempt), so the shared policy of :mod:`spatialbench.models.api` is the
only one. ``GenerationSettings.extra`` entries go to ``GenerateContentConfig`` unchanged (e.g. ``top_k``).
Output tokens include thinking tokens (``thoughtsTokenCount``, billed as output); ``raw`` keeps both.
Option ``base_url`` points the client at another endpoint (a proxy, or a test server).
"""

from __future__ import annotations

import os
from typing import Any

from spatialbench.models.api import (
    ApiBackend,
    ApiSettings,
    encode_image,
    is_retryable_status,
    public_url,
    retry_after_from_headers,
)
from spatialbench.models.base import BACKENDS
from spatialbench.models.errors import BackendError, ProviderUnavailableError, RetryableError
from spatialbench.models.parts import map_parts
from spatialbench.records.messages import ImagePart, Part, Request, Response, TokenLogprob

#: Gemini API limit on images in one request (ai.google.dev, "image understanding": 3,600 per request).
GEMINI_MAX_IMAGES = 3600
KEY_VARIABLES = ("GOOGLE_API_KEY", "GEMINI_API_KEY")


class GeminiBackend(ApiBackend):
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
    default_max_images = GEMINI_MAX_IMAGES

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_version: str | None = None,
        settings: ApiSettings | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(settings, seed)
        try:
            from google import genai
            from google.genai import errors, types
        except ImportError as exc:
            raise ProviderUnavailableError(f"the gemini back end needs google-genai: {exc}") from exc
        key = next((os.environ[v] for v in KEY_VARIABLES if os.environ.get(v)), None)
        if key is None:
            raise BackendError(
                f"environment variable {' or '.join(KEY_VARIABLES)} is not set (needed for Gemini)"
            )
        self.model = model
        self.base_url = base_url
        self._types, self._errors = types, errors
        http = types.HttpOptions(
            base_url=base_url,
            api_version=api_version,
            timeout=int(self.settings.timeout_s * 1000),  # milliseconds
            retry_options=types.HttpRetryOptions(attempts=1),
        )
        self._client = genai.Client(api_key=key, vertexai=False, http_options=http)

    def _parts(self, parts: tuple[Part, ...]) -> list[Any]:
        types, s = self._types, self.settings

        def image(part: ImagePart) -> Any:
            data = encode_image(part.pixels, s.image_format, s.jpeg_quality)
            return types.Part.from_bytes(data=data, mime_type=f"image/{s.image_format.value}")

        return map_parts(parts, lambda text: types.Part(text=text), image)

    def _contents(self, request: Request) -> list[Any]:
        content = self._types.Content
        turns = [
            content(role="model" if role == "assistant" else role, parts=self._parts(parts))
            for role, parts in request.history
        ]
        return [*turns, content(role="user", parts=self._parts(request.parts))]

    async def _send(self, request: Request) -> Response:
        s = request.settings
        config = self._types.GenerateContentConfig(
            system_instruction=request.system,
            temperature=s.temperature,
            top_p=s.top_p,
            max_output_tokens=s.max_new_tokens,
            seed=s.seed,
            response_logprobs=s.logprobs or None,
            **dict(s.extra),
        )
        reply = await self._client.aio.models.generate_content(
            model=self.model, contents=self._contents(request), config=config
        )
        return _to_response(reply)

    def _classify(self, exc: Exception) -> RetryableError | None:
        if isinstance(exc, self._errors.APIError) and is_retryable_status(exc.code):
            wait = retry_after_from_headers(getattr(exc.response, "headers", None))
            return RetryableError(f"HTTP {exc.code}: {exc.message}", retry_after=wait)
        names = {cls.__name__ for cls in type(exc).__mro__}
        if "TransportError" in names:
            # httpx / httpx2 connection, read and timeout failures (the SDK uses whichever is installed);
            # ConnectError (refused, DNS) feeds the circuit breaker of api.py
            return RetryableError(f"{type(exc).__name__}: {exc}", connection="ConnectError" in names)
        return None

    def describe(self) -> dict[str, Any]:
        """Return provider, model, endpoint (without credentials) and transport settings."""
        return {**super().describe(), "model": self.model, "base_url": public_url(self.base_url)}

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        await self._client.aio.aclose()


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


@BACKENDS.register("gemini")
def make_gemini(
    model: str, *, api: ApiSettings | None = None, seed: int | None = None, **options: Any
) -> ApiBackend:
    """Build the back end for ``gemini:MODEL``; options ``base_url``, ``api_version``.

    Raises:
        BackendError: empty model name or no API key.
    """
    if not model:
        raise BackendError("gemini back end needs a model name: gemini:MODEL")
    return GeminiBackend(model, settings=api, seed=seed, **options)
