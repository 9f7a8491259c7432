"""Anthropic Messages API back end via the official ``anthropic`` SDK (async), provider ``anthropic``.

``anthropic:claude-sonnet-4-5``. The key comes from ``ANTHROPIC_API_KEY`` and is never recorded. Images go
as base64 ``image`` content blocks (PNG or JPEG per :class:`~spatialbench.models.api.ApiSettings`), an
image's label as a text block right before it. The SDK's own retries are off (``max_retries=0``), so the
shared policy of :mod:`spatialbench.models.api` is the only one (it honours ``retry-after``; 529
"overloaded" is a 5xx and retried).

Sampling: none of ``temperature``, ``top_p``, ``top_k`` is sent. The SDK 2.x speaks API version
2026-10-21, which rejects every sampling parameter at any value (the SDK removed them), so greedy decoding
cannot be requested: answers use the provider's own sampling, and ``describe()`` / ``Response.raw`` say so
(``"sampling": "provider default"``) so a report can flag it. The API returns no log-probabilities, so
``Response.logprobs`` is None.
Input tokens count cache reads and writes too (``raw`` keeps the split). ``GenerationSettings.extra``
entries are sent as extra body fields (e.g. ``top_k``).
"""

from __future__ import annotations

from typing import Any

from spatialbench.models.errors import RetryableError
from spatialbench.models.images import image_base64
from spatialbench.models.parts import map_parts
from spatialbench.models.provider import ProviderBackend
from spatialbench.models.retry import classify_sdk_error
from spatialbench.records.messages import ImagePart, Part, Request, Response

#: Messages API limit on images in one request (docs.anthropic.com, "Vision": 100 per API request).
ANTHROPIC_MAX_IMAGES = 100
KEY_VARIABLE = "ANTHROPIC_API_KEY"
#: what decides the sampling: the API accepts no temperature / top_p / top_k (see the module docstring).
SAMPLING = "provider default"


class AnthropicBackend(ProviderBackend):
    """``POST /v1/messages`` for ``model``.

    Args:
        model: e.g. ``claude-sonnet-4-5``.
        base_url: endpoint root (None = the SDK's default, which reads ``ANTHROPIC_BASE_URL``).
        settings: shared transport settings; ``max_images`` defaults to :data:`ANTHROPIC_MAX_IMAGES`.

    Raises:
        ProviderUnavailableError: ``anthropic`` is not installed.
        BackendError: no API key in the environment.
    """

    provider = "anthropic"
    label = "Anthropic"
    sdk = "anthropic"
    sdk_package = "anthropic"
    image_form = "b64"
    key_variables = (KEY_VARIABLE,)
    notes = {"sampling": SAMPLING}
    default_max_images = ANTHROPIC_MAX_IMAGES

    def _connect(self, key: str | None) -> Any:
        return self._sdk.AsyncAnthropic(
            api_key=key, base_url=self.base_url, max_retries=0, timeout=self.settings.timeout_s
        )

    def _content(self, parts: tuple[Part, ...]) -> list[dict[str, Any]]:
        s = self.settings

        def image(part: ImagePart) -> dict[str, Any]:
            data = image_base64(part.pixels, s.image_format, s.jpeg_quality)
            source = {"type": "base64", "media_type": f"image/{s.image_format.value}", "data": data}
            return {"type": "image", "source": source}

        return map_parts(parts, lambda text: {"type": "text", "text": text}, image)

    def _messages(self, request: Request) -> list[dict[str, Any]]:
        return [{"role": role, "content": self._content(parts)} for role, parts in request.turns]

    async def _send(self, request: Request) -> Response:
        s = request.settings
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": s.max_new_tokens,
            "messages": await self._prepared(self._messages, request),  # off the loop when large
        }
        if request.system:
            kwargs["system"] = request.system
        if s.extra:
            kwargs["extra_body"] = dict(s.extra)
        message = await self._client.messages.create(**kwargs)
        return _to_response(message)

    def _classify(self, exc: Exception) -> RetryableError | None:
        return classify_sdk_error(exc, self._sdk)  # 529 "overloaded" is a 5xx: retried


def _to_response(message: Any) -> Response:
    """Turn a Message into a Response: its text blocks joined (thinking blocks left out)."""
    text = "".join(block.text for block in message.content or [] if block.type == "text")
    usage = message.usage
    cache_read = (usage.cache_read_input_tokens or 0) if usage else 0
    cache_write = (usage.cache_creation_input_tokens or 0) if usage else 0
    return Response(
        text=text,
        input_tokens=usage.input_tokens + cache_read + cache_write if usage else None,
        output_tokens=usage.output_tokens if usage else None,
        raw={
            "finish_reason": message.stop_reason,
            "sampling": SAMPLING,
            "model": message.model,
            "cache_read_input_tokens": cache_read,
            "cache_creation_input_tokens": cache_write,
        },
    )


#: the ``anthropic`` factory of BACKENDS: ``anthropic:MODEL``, option ``base_url``.
make_anthropic = AnthropicBackend.from_model_part
