"""What every API back end shares: retries, bounded concurrency, timeouts, image encoding, image limits.

A provider module subclasses :class:`ApiBackend` and implements two hooks:

- ``_send(request) -> Response``: one attempt against the provider (no retry logic inside);
- ``_classify(exc) -> RetryableError | None``: map a provider exception to a transient failure, or None
  when it is permanent (bad request, authentication...). Timeouts of the per-request limit are transient
  without any hook.

``ApiBackend.generate`` applies the image-count limit, bounds concurrency with a semaphore, enforces the
per-request timeout and retries transient failures with exponential backoff and full jitter, honouring a
server's ``Retry-After``.

Circuit breaker: while no request of a back end has succeeded yet, ``ApiSettings.breaker_failures``
consecutive *connection* failures (refused, DNS, reset: :class:`RetryableError` with ``connection=True``)
open the breaker: the failing request and every later one raise :class:`EndpointUnreachableError` at once,
so a wrong or down endpoint costs seconds instead of every item's backoff. After the first success the
breaker is disarmed for good (a mid-run outage is retried per request as usual).
"""

from __future__ import annotations

import asyncio
import base64
import email.utils
import io
import threading
import time
import weakref
from abc import abstractmethod
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
from numpy.typing import NDArray

from spatialbench.models.base import Backend
from spatialbench.models.errors import (
    BackendError,
    EndpointUnreachableError,
    RetryableError,
    TooManyImagesError,
)
from spatialbench.records.messages import ImagePart, Request, Response


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter.

    Attempt ``k`` (0-based) that fails transiently waits ``uniform(0, min(max_delay_s, base_delay_s * 2**k))``
    seconds, or the server's ``Retry-After`` when that is longer (capped at ``max_retry_after_s``).
    ``max_attempts`` counts the first try.
    """

    max_attempts: int = 6
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0
    max_retry_after_s: float = 300.0

    def delay(self, attempt: int, retry_after: float | None, rng: np.random.Generator) -> float:
        """Seconds to wait after failed attempt ``attempt`` (0-based)."""
        backoff = float(rng.uniform(0.0, min(self.max_delay_s, self.base_delay_s * 2.0**attempt)))
        if retry_after is None:
            return backoff
        return max(backoff, min(retry_after, self.max_retry_after_s))


class ImageOverflow(StrEnum):
    """What to do with a request holding more images than ``max_images``."""

    ERROR = "error"  # raise TooManyImagesError (recorded against the item)
    SUBSAMPLE = "subsample"  # keep max_images evenly spaced images, drop the rest


class ImageFormat(StrEnum):
    """Encoding of images sent to an API."""

    PNG = "png"
    JPEG = "jpeg"


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
            breaker (see the module docstring).
    """

    concurrency: int = 8
    timeout_s: float = 120.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    max_images: int | None = None
    image_overflow: ImageOverflow = ImageOverflow.ERROR
    image_format: ImageFormat = ImageFormat.PNG
    jpeg_quality: int = 90
    breaker_failures: int = 5


class ConnectionBreaker:
    """Counts consecutive connection failures until the first success; opens at ``threshold``."""

    def __init__(self, threshold: int = 5) -> None:
        self.threshold = threshold
        self.failures = 0
        self.armed = True  # disarmed by the first success
        self.open = False

    def record(self, failure: RetryableError | None) -> None:
        """Count one attempt's outcome: None = success, else its transient failure."""
        if not self.armed:
            return
        if failure is None:
            self.armed = False
        elif failure.connection:
            self.failures += 1
            self.open = self.failures >= self.threshold
        else:
            self.failures = 0  # the server answered (429, 5xx, timeout): it is reachable

    def error(self, last: BaseException | None = None) -> EndpointUnreachableError:
        """Return the error raised while open."""
        cause = f"; last: {last}" if last is not None else ""
        return EndpointUnreachableError(
            f"endpoint unreachable: {self.failures} consecutive connection failures before any answer{cause}"
        )


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date); None if absent/bad."""
    if value is None or not value.strip():
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def retry_after_from_headers(headers: Any) -> float | None:
    """Read ``retry-after-ms`` or ``Retry-After`` from a mapping of response headers."""
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        seconds = parse_retry_after(millis)
        return None if seconds is None else seconds / 1000.0
    return parse_retry_after(headers.get("retry-after"))


def public_url(url: str | None) -> str | None:
    """Return the URL without user info, query or fragment (safe to record)."""
    if url is None:
        return None
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def is_retryable_status(status: int) -> bool:
    """HTTP statuses worth retrying: 408, 409 (lock), 429 and every 5xx."""
    return status in (408, 409, 429) or status >= 500


def classify_sdk_error(exc: Exception, sdk: Any) -> RetryableError | None:
    """Map an SDK exception to a transient failure (RetryableError) or None when it is permanent.

    For SDKs with the common ``APITimeoutError`` / ``APIConnectionError`` / ``APIStatusError`` classes
    (``openai``, ``anthropic``): timeouts, dropped connections and retryable statuses are transient.
    """
    if isinstance(exc, sdk.APITimeoutError):  # a subclass of APIConnectionError, but the server is there
        return RetryableError(f"{type(exc).__name__}: {exc}")
    if isinstance(exc, sdk.APIConnectionError):
        return RetryableError(f"{type(exc).__name__}: {exc}", connection=True)
    if isinstance(exc, sdk.APIStatusError) and is_retryable_status(exc.status_code):
        wait = retry_after_from_headers(exc.response.headers)
        return RetryableError(f"HTTP {exc.status_code}: {exc.message}", retry_after=wait)
    return None


async def call_with_retries(
    attempt: Callable[[], Awaitable[Response]],
    *,
    policy: RetryPolicy,
    timeout_s: float | None,
    classify: Callable[[Exception], RetryableError | None],
    rng: np.random.Generator,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    breaker: ConnectionBreaker | None = None,
) -> Response:
    """Run ``attempt`` until it succeeds, a permanent error occurs or ``policy.max_attempts`` is spent.

    ``timeout_s`` (None = none) bounds each attempt; a timeout counts as a transient failure.
    ``breaker`` (shared by a back end's requests) sees every attempt's outcome.

    Raises:
        BackendError: permanent failure, or the last transient failure once attempts are spent
            (the message counts the attempts).
        EndpointUnreachableError: the breaker is open (nothing is sent) or this attempt opened it.
    """
    last: RetryableError | None = None
    for k in range(policy.max_attempts):
        if breaker is not None and breaker.open:
            raise breaker.error(last)
        try:
            response = await (attempt() if timeout_s is None else asyncio.wait_for(attempt(), timeout_s))
        except TimeoutError:
            last = RetryableError("request timed out")
        except RetryableError as exc:
            last = exc
        except BackendError:
            raise
        except Exception as exc:  # provider SDK errors: classified by the back end
            last = classify(exc)
            if last is None:
                raise BackendError(f"{type(exc).__name__}: {exc}") from exc
        else:
            if breaker is not None:
                breaker.record(None)
            return response
        if breaker is not None:
            breaker.record(last)
            if breaker.open:
                raise breaker.error(last) from last
        if k + 1 < policy.max_attempts:
            await sleep(policy.delay(k, last.retry_after, rng))
    assert last is not None
    raise BackendError(f"gave up after {policy.max_attempts} attempts: {last}") from last


class _EncodedImages:
    """Encodings of image arrays, reused while the same array object is alive.

    A benchmark asks many questions about one video (VSI-Bench: ~18), and the frame cache hands every
    request the same frame arrays, so each frame is encoded once per run instead of once per request.
    Entries are keyed by the array's identity, checked through a weak reference (a new array that reuses
    a dead one's ``id`` is a miss); frames are read-only (``SampledFrames``), so identity implies content.
    Least recently used entries go once ``max_bytes`` is exceeded. Thread-safe.
    """

    def __init__(self, max_bytes: int = 512 * 2**20) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[int, str], tuple[weakref.ref[Any], Any]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, pixels: NDArray[np.uint8], kind: str, make: Callable[[], Any]) -> Any:
        """Return the encoding ``kind`` of ``pixels``, computing it with ``make()`` on a miss."""
        if pixels.flags.writeable:  # a mutable array may change under the same identity: no caching
            return make()
        key = (id(pixels), kind)
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None and hit[0]() is pixels:
                self._entries.move_to_end(key)
                return hit[1]
        value = make()
        with self._lock:
            old = self._entries.pop(key, None)
            self._bytes += len(value) - (len(old[1]) if old else 0)
            self._entries[key] = (weakref.ref(pixels), value)
            while self._bytes > self.max_bytes and len(self._entries) > 1:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= len(dropped)
        return value


_ENCODED = _EncodedImages()


def _encode(pixels: NDArray[np.uint8], fmt: ImageFormat, quality: int) -> bytes:
    from PIL import Image  # lazy: only API back ends need it

    buffer = io.BytesIO()
    image = Image.fromarray(np.ascontiguousarray(pixels), mode="RGB")
    if fmt is ImageFormat.JPEG:
        image.save(buffer, format="JPEG", quality=quality)
    else:
        image.save(buffer, format="PNG")
    return buffer.getvalue()


def encode_image(pixels: NDArray[np.uint8], fmt: ImageFormat = ImageFormat.PNG, quality: int = 90) -> bytes:
    """Encode an RGB array of shape (H, W, 3), uint8, as PNG or JPEG bytes.

    Read-only arrays (sampled frames) are encoded once and the bytes reused while the array lives.
    """
    return _ENCODED.get(pixels, f"{fmt.value}:{quality}", lambda: _encode(pixels, fmt, quality))


def image_base64(pixels: NDArray[np.uint8], fmt: ImageFormat = ImageFormat.PNG, quality: int = 90) -> str:
    """Base64 text (no data-URL prefix) of the encoded image (cached like :func:`encode_image`)."""
    return _ENCODED.get(
        pixels,
        f"{fmt.value}:{quality}:b64",
        lambda: base64.b64encode(encode_image(pixels, fmt, quality)).decode("ascii"),
    )


def image_data_url(pixels: NDArray[np.uint8], fmt: ImageFormat = ImageFormat.PNG, quality: int = 90) -> str:
    """``data:image/...;base64,...`` URL of the encoded image (OpenAI-style ``image_url``)."""
    return f"data:image/{fmt.value};base64,{image_base64(pixels, fmt, quality)}"


def limit_images(request: Request, max_images: int | None, policy: ImageOverflow) -> Request:
    """Apply a per-request image limit to the user turn.

    Raises:
        TooManyImagesError: more than ``max_images`` images and ``policy`` is ERROR.
    """
    n = request.n_images
    if max_images is None or n <= max_images:
        return request
    if policy is ImageOverflow.ERROR:
        raise TooManyImagesError(f"request has {n} images; this back end allows {max_images} (max_images)")
    keep = set(np.linspace(0, n - 1, max_images).round().astype(int).tolist())
    parts, seen = [], 0
    for part in request.parts:
        if isinstance(part, ImagePart):
            seen += 1
            if seen - 1 not in keep:
                continue
        parts.append(part)
    return replace(request, parts=tuple(parts))


class ApiBackend(Backend):
    """Base of the API back ends: subclasses implement ``_send`` and ``_classify`` only.

    ``default_max_images`` is the provider's documented per-request image limit, used when the settings
    leave ``max_images`` unset (None = no limit known).
    """

    default_max_images: int | None = None

    def __init__(self, settings: ApiSettings | None = None, seed: int | None = None) -> None:
        settings = settings or ApiSettings()
        if settings.max_images is None and self.default_max_images is not None:
            settings = replace(settings, max_images=self.default_max_images)
        self.settings = settings
        self._semaphore = asyncio.Semaphore(self.settings.concurrency)
        self._rng = np.random.default_rng(seed)  # jitter only; never affects outputs
        self.breaker = ConnectionBreaker(self.settings.breaker_failures)

    async def generate(self, request: Request) -> Response:
        """Answer one request with limits, concurrency bound, timeout and retries applied."""
        request = limit_images(request, self.settings.max_images, self.settings.image_overflow)

        async def attempt() -> Response:
            # The timeout covers the call only, not the wait for a concurrency slot.
            async with self._semaphore:
                return await asyncio.wait_for(self._send(request), self.settings.timeout_s)

        return await call_with_retries(
            attempt,
            policy=self.settings.retry,
            timeout_s=None,
            classify=self._classify,
            rng=self._rng,
            breaker=self.breaker,
        )

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
