"""What every API back end shares: transport settings (the run defaults) and the retrying base class.

:class:`ApiSettings` and :class:`~spatialbench.models.retry.RetryPolicy` hold, as their field defaults, the
one source of a run's transport defaults (concurrency 8, 120 s per attempt, 6 attempts, 1 s base delay).

A back end subclasses :class:`ApiBackend` and implements two hooks:

- ``_send(request) -> Response``: one attempt against the provider (no retry logic inside);
- ``_classify(exc) -> RetryableError | None``: map a provider exception to a transient failure, or None
  when it is permanent (bad request, authentication...). Timeouts of the per-request limit are transient
  without any hook.

Optionally, ``_build(request)`` returns the payload (e.g. the body) and ``_send_built(request, payload)``
sends it: :meth:`ApiBackend.generate` then builds it before the request waits for a concurrency slot, so a
slot freed by an answer goes to a request that is ready to send (issue 25).

``ApiBackend.generate`` applies the image-count limit (:mod:`spatialbench.models.images`), bounds
concurrency with a semaphore, enforces the per-request timeout and retries transient failures with
exponential backoff and full jitter, honouring a server's ``Retry-After``, behind a circuit breaker
(:mod:`spatialbench.models.retry`). Hosted providers build on
:class:`~spatialbench.models.provider.ProviderBackend`.
"""

from __future__ import annotations

import asyncio
import re
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal, TypeVar
from urllib.parse import urlsplit, urlunsplit

import numpy as np
from numpy.typing import NDArray

from spatialbench.models.base import Backend
from spatialbench.models.errors import BackendError, RetryableError
from spatialbench.models.images import (
    ImageFormat,
    ImageOverflow,
    all_encoded,
    encode_off_loop,
    encode_together,
    limit_images,
    request_images,
)
from spatialbench.models.retry import ConnectionBreaker, RetryPolicy, call_with_retries
from spatialbench.records.messages import Request, Response

T = TypeVar("T")


@dataclass(frozen=True)
class ApiSettings:
    """Transport settings shared by the API back ends (recorded with a run; no secrets).

    Attributes:
        concurrency: most requests in flight at once from this back end.
        timeout_s: limit for one attempt, seconds.
        retry: backoff policy for transient failures.
        max_images: per-request image limit (None = unlimited).
        image_overflow: policy beyond ``max_images``.
        image_format: PNG (lossless) or JPEG (``jpeg_quality``).
        breaker_failures: consecutive connection failures, before any success, that open the circuit
            breaker (see :mod:`spatialbench.models.retry`).
    """

    concurrency: int = 8
    timeout_s: float = 120.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    max_images: int | None = None
    image_overflow: ImageOverflow = ImageOverflow.ERROR
    image_format: ImageFormat = ImageFormat.PNG
    jpeg_quality: int = 90
    breaker_failures: int = 5


def public_url(url: str | None) -> str | None:
    """Return the URL without user info, query or fragment (safe to record); never raises.

    A URL that cannot be parsed (port out of range, unclosed IPv6 bracket) is ``SCHEME://<malformed URL>``
    (:func:`check_base_url` says why).
    """
    if url is None:
        return None
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        host = f"[{host}]" if ":" in host else host
        netloc = f"{host}:{parts.port}" if parts.port else host
    except ValueError:
        return f"{url.partition(':')[0][:16]}://<malformed URL>"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def check_base_url(url: str) -> str:
    """Return ``url`` when it is an http(s) URL with a host and a valid port.

    Raises:
        BackendError: one line naming the URL (without credentials) and why (not http(s), no host, port
            out of range 0-65535, invalid IPv6 brackets).
    """
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises for a port out of range)
    except ValueError as exc:  # name the host part only: user info, path and query may hold a key
        scheme, _, rest = url.partition("://")
        host = re.split(r"[/?#]", rest, maxsplit=1)[0].rpartition("@")[2]
        raise BackendError(f"base URL {scheme}://{host}: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BackendError(
            f"base URL is not an http(s) URL: {public_url(url)!r} (no http(s) scheme or no host; "
            "expected e.g. http://127.0.0.1:8000/v1)"
        )
    return url


class ApiBackend(Backend):
    """Base of the API back ends: subclasses implement ``_send`` and ``_classify`` only.

    ``default_max_images`` is the provider's documented per-request image limit, used when the settings
    leave ``max_images`` unset (None = no limit known).
    """

    default_max_images: int | None = None
    #: how the back end's wire format reads encoded images (``encode_image`` "bytes", ``image_base64``
    #: "b64", ``image_data_url`` "url"): every back end encodes through :meth:`generate`'s one path
    image_form: ClassVar[Literal["bytes", "b64", "url"]] = "url"

    def __init__(self, settings: ApiSettings | None = None, seed: int | None = None) -> None:
        settings = settings or ApiSettings()
        if settings.max_images is None and self.default_max_images is not None:
            settings = replace(settings, max_images=self.default_max_images)
        self.settings = settings
        self._semaphore = asyncio.Semaphore(self.settings.concurrency)
        self._rng = np.random.default_rng(seed)  # jitter only; never affects outputs
        self.breaker = ConnectionBreaker(self.settings.breaker_failures)
        self._sent = 0  # attempts sent, retries included (requests_sent)

    async def generate(self, request: Request) -> Response:
        """Answer one request with limits, concurrency bound, timeout and retries applied."""
        request = limit_images(request, self.settings.max_images, self.settings.image_overflow)
        # Encoded and built before a concurrency slot is taken: requests waiting for the encodings of a
        # new video would otherwise hold the slots of requests ready to send, and a slot freed by an
        # answer goes to a request that only has to be written to the socket (issue 25).
        payload = await self._off_loop(request, lambda: self._build(request))

        async def attempt() -> Response:
            # The timeout covers the call only, not the wait for a concurrency slot. asyncio.timeout, not
            # wait_for: wait_for runs the call as a task of its own, two more turns of the event loop
            # between a freed slot and the next request on the wire.
            async with self._semaphore:
                self._sent += 1
                async with asyncio.timeout(self.settings.timeout_s):
                    return await self._send_built(request, payload)

        return await call_with_retries(
            attempt,
            policy=self.settings.retry,
            timeout_s=None,
            classify=self._classify,
            rng=self._rng,
            breaker=self.breaker,
        )

    def prepare_images(self, images: list[NDArray[np.uint8]]) -> None:
        """Encode ``images`` as requests will send them (each distinct frame once; thread-safe).

        Skipped when they are more than ``max_images``: a request would not send them all.
        """
        if self.settings.max_images is None or len(images) <= self.settings.max_images:
            encode_together(images, self.settings.image_format, self.settings.jpeg_quality, self.image_form)

    async def _prepared(self, build: Callable[[Request], T], request: Request) -> T:
        """Return ``build(request)`` with the request's images encoded; off the event loop when large.

        :meth:`generate` encoded them before the attempt (each distinct frame once per run, shared with
        concurrent requests), so this only builds the payload from the cached encodings.
        """
        return await self._off_loop(request, lambda: build(request))

    async def _off_loop(self, request: Request, then: Callable[[], T]) -> T:
        """Encode the images of ``request`` (cached ones are not encoded again), then return ``then()``.

        Both run in a worker thread when the images are large
        (:func:`~spatialbench.models.images.encode_off_loop`) and not all encoded yet: splicing cached
        encodings into a body takes well under a millisecond, while the hop to a worker thread and back
        waits for the interpreter lock behind the decoding thread (issue 25: ~60 ms per demo request
        between a slot freed and its next request sent).
        """
        images = request_images(request)
        s = self.settings

        def work() -> T:
            encode_together(images, s.image_format, s.jpeg_quality, self.image_form)
            return then()

        done = all_encoded(images, s.image_format, s.jpeg_quality, self.image_form)
        return await asyncio.to_thread(work) if encode_off_loop(images) and not done else work()

    def requests_sent(self) -> int:
        """Return the attempts sent so far, each retry of a request counted (what the server saw)."""
        return self._sent

    def _build(self, request: Request) -> Any:
        """Return what :meth:`_send_built` sends for ``request`` (default None: ``_send`` builds it).

        Built once per request (retries resend it), before a concurrency slot is taken, off the event
        loop when its images have to be encoded.
        """
        return None

    async def _send_built(self, request: Request, payload: Any) -> Response:
        """One attempt sending ``payload`` (:meth:`_build`'s); default: :meth:`_send`."""
        return await self._send(request)

    @abstractmethod
    async def _send(self, request: Request) -> Response:
        """One attempt against the provider; raise the SDK's own exceptions or BackendError."""

    def _classify(self, exc: Exception) -> RetryableError | None:
        """Map a provider exception to a transient failure, or None when it is permanent."""
        return None

    def describe(self) -> dict[str, Any]:
        """Return the provider name and transport settings (no secrets)."""
        s = self.settings
        return {
            "provider": self.provider,
            "timeout_s": s.timeout_s,
            "max_attempts": s.retry.max_attempts,
            "max_images": s.max_images,
            "image_overflow": s.image_overflow.value,
            "image_format": s.image_format.value,
        }
