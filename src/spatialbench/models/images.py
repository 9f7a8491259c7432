"""Images sent to an API: encoding (PNG / JPEG, once per distinct frame), request bodies, the image limit."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import threading
import uuid
import weakref
from collections import Counter, OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, cast

import numpy as np
from numpy.typing import NDArray

from spatialbench.models.errors import TooManyImagesError
from spatialbench.records.messages import ImagePart, Request


class ImageOverflow(StrEnum):
    """What to do with a request holding more images than ``max_images``."""

    ERROR = "error"  # raise TooManyImagesError (recorded against the item)
    SUBSAMPLE = "subsample"  # keep max_images evenly spaced images, drop the rest


class ImageFormat(StrEnum):
    """Encoding of images sent to an API."""

    PNG = "png"
    JPEG = "jpeg"


class WireText(str):
    """Text of JSON-safe ASCII characters only (base64, data URLs), spliced into request bodies unescaped."""


@dataclass(frozen=True, slots=True)
class WireBytes:
    """ASCII bytes of JSON-safe characters only (a data URL), spliced into request bodies as they are.

    A wrapper, not a bytes subclass: a body's pieces are then exact ``bytes``, which the HTTP stack (h11)
    sends as they are; a subclass is copied on every send (a fresh ~230 KB per frame per request).
    """

    data: bytes

    def __len__(self) -> int:
        return len(self.data)


EncodingKey = tuple[str, tuple[int, ...], str, int]  # frame digest, shape, format, quality


class _EncodedImages:
    """Single-flight cache of image encodings, keyed by frame digest, shape, format and quality.

    A benchmark asks many questions about one video (VSI-Bench: ~18) and requests about it run at
    once: the first request for a key encodes, the others wait for that result, so each distinct frame
    is encoded once per run (``encodes`` counts every encoding made). The digest (SHA-1 of the pixels)
    of a read-only array (``SampledFrames``) is computed once while the array object lives (checked
    through a weak reference); a writeable array is digested on every call, since it may change.
    Least recently used encodings go once ``max_bytes`` is exceeded. Thread-safe.
    """

    def __init__(self, max_bytes: int = 512 * 2**20) -> None:
        self.max_bytes = max_bytes
        self.encodes: Counter[EncodingKey] = Counter()
        self._digests: dict[int, tuple[weakref.ref[Any], str]] = {}
        self._entries: OrderedDict[tuple[EncodingKey, str], Any] = OrderedDict()
        self._pending: dict[tuple[EncodingKey, str], Future[Any]] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    def digest(self, pixels: NDArray[np.uint8]) -> str:
        """Hex SHA-1 digest of the array's bytes (cached per read-only array object).

        A content key, not a security measure: SHA-1 runs ~2x faster than BLAKE2b on CPUs with SHA
        instructions (0.8 against 1.6 ms per 640×480 frame).
        """
        if pixels.flags.writeable:
            return _digest(pixels)
        address = id(pixels)
        hit = self._digests.get(address)
        if hit is not None and hit[0]() is pixels:
            return hit[1]
        value = _digest(pixels)
        digests = self._digests

        def forget(ref: weakref.ref[Any]) -> None:  # runs at collection: no lock (dict ops are atomic)
            entry = digests.get(address)
            if entry is not None and entry[0] is ref:
                digests.pop(address, None)

        digests[address] = (weakref.ref(pixels, forget), value)
        return value

    def get(self, pixels: NDArray[np.uint8], fmt: ImageFormat, quality: int, form: str) -> Any:
        """Return encoding ``form`` ("bytes", "b64", "url") of ``pixels``; one thread encodes per key."""
        slot = (self._key(pixels, fmt, quality), form)
        value, future, own = self._claim(slot)
        if future is None:
            return value
        return self._fill(slot, pixels, fmt, quality, future) if own else future.result()

    def warm(self, frames: list[NDArray[np.uint8]], fmt: ImageFormat, quality: int, form: str) -> None:
        """Encode the frames of one request, sharing the work with concurrent requests for them.

        Frames another thread is encoding are skipped (and waited for at the end), so requests about
        one video encode its frames in parallel instead of queueing behind one encoder. Errors are
        left to :meth:`get`.
        """
        waiting = []
        for pixels in frames:
            slot = (self._key(pixels, fmt, quality), form)
            _, future, own = self._claim(slot)
            if own and future is not None:
                self._fill(slot, pixels, fmt, quality, future, raise_errors=False)
            elif future is not None:
                waiting.append(future)
        for future in waiting:
            future.exception()  # wait only

    def cached(self, frames: list[NDArray[np.uint8]], fmt: ImageFormat, quality: int, form: str) -> bool:
        """Whether every frame's encoding ``form`` is in the cache (none to encode, none in progress)."""
        slots = [(self._key(pixels, fmt, quality), form) for pixels in frames]
        with self._lock:
            return all(slot in self._entries for slot in slots)

    def forget(self, frames: list[NDArray[np.uint8]]) -> int:
        """Drop every cached encoding (all formats and forms) of ``frames``; return the bytes freed."""
        digests = {self.digest(pixels) for pixels in frames}
        freed = 0
        with self._lock:
            for slot in [slot for slot in self._entries if slot[0][0] in digests]:
                freed += len(self._entries.pop(slot))
            self._bytes -= freed
        return freed

    def _key(self, pixels: NDArray[np.uint8], fmt: ImageFormat, quality: int) -> EncodingKey:
        return (self.digest(pixels), pixels.shape, fmt.value, quality)

    def _claim(self, slot: tuple[EncodingKey, str]) -> tuple[Any, Future[Any] | None, bool]:
        """Return (cached value, None, False) on a hit, else (None, the future to wait on or fill, owned)."""
        with self._lock:
            value = self._entries.get(slot)
            if value is not None:
                self._entries.move_to_end(slot)
                return value, None, False
            waiting = self._pending.get(slot)
            if waiting is not None:
                return None, waiting, False
            future: Future[Any] = Future()
            self._pending[slot] = future
            return None, future, True

    def _fill(
        self,
        slot: tuple[EncodingKey, str],
        pixels: NDArray[np.uint8],
        fmt: ImageFormat,
        quality: int,
        future: Future[Any],
        raise_errors: bool = True,
    ) -> Any:
        """Encode for a claimed ``slot``, store the value and hand it (or the error) to every waiter."""
        try:
            value = _FORMS[slot[1]](_encode(pixels, fmt, quality), fmt)
        except Exception as exc:
            with self._lock:
                del self._pending[slot]
            future.set_exception(exc)
            if raise_errors:
                raise
            return None
        with self._lock:
            del self._pending[slot]
            self.encodes[slot[0]] += 1
            self._entries[slot] = value
            self._bytes += len(value)
            while self._bytes > self.max_bytes and len(self._entries) > 1:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= len(dropped)
        future.set_result(value)
        return value


def _digest(pixels: NDArray[np.uint8]) -> str:
    return hashlib.sha1(np.ascontiguousarray(pixels).data, usedforsecurity=False).hexdigest()


def _base64(data: bytes, fmt: ImageFormat) -> WireText:
    return WireText(base64.b64encode(data).decode("ascii"))


def _data_url(data: bytes, fmt: ImageFormat) -> WireBytes:
    return WireBytes(b"data:image/" + fmt.value.encode() + b";base64," + base64.b64encode(data))


_FORMS: dict[str, Callable[[bytes, ImageFormat], Any]] = {
    "bytes": lambda data, fmt: data,
    "b64": _base64,
    "url": _data_url,
}
_ENCODED = _EncodedImages()

#: requests with images of at most this many pixels are encoded and serialised on the event loop
INLINE_ENCODE_PIXELS = 200_000


def encode_counts() -> Counter[EncodingKey]:
    """Return the encodings made in this process per (frame digest, shape, format, quality) (a copy)."""
    with _ENCODED._lock:
        return Counter(_ENCODED.encodes)


def encode_together(
    frames: list[NDArray[np.uint8]], fmt: ImageFormat, quality: int, form: Literal["bytes", "b64", "url"]
) -> None:
    """Encode the images of one request, taking turns with concurrent requests for the same frames.

    Called before :func:`encode_image` / :func:`image_base64` / :func:`image_data_url` (``form``) reads
    them; frames already being encoded elsewhere are waited for, not encoded again.
    """
    _ENCODED.warm(frames, fmt, quality, form)


def all_encoded(
    frames: list[NDArray[np.uint8]], fmt: ImageFormat, quality: int, form: Literal["bytes", "b64", "url"]
) -> bool:
    """Whether every one of ``frames`` is already encoded as ``form`` (reading them encodes nothing)."""
    return _ENCODED.cached(frames, fmt, quality, form)


def request_images(request: Request) -> list[NDArray[np.uint8]]:
    """Return the pixel arrays of every image of every turn of ``request``, in order."""
    return [p.pixels for _, parts in request.turns for p in parts if isinstance(p, ImagePart)]


def encode_off_loop(images: list[NDArray[np.uint8]]) -> bool:
    """Whether images are large enough (> :data:`INLINE_ENCODE_PIXELS` in all) to encode off the event loop.

    Encoding and serialising them is CPU work (zlib releases the interpreter lock); on the event loop it
    would stall every other request.
    """
    return sum(pixels.shape[0] * pixels.shape[1] for pixels in images) > INLINE_ENCODE_PIXELS


def release_encodings(frames: list[NDArray[np.uint8]]) -> int:
    """Drop the cached encodings of ``frames`` (no pending request needs them); return the bytes freed.

    A later request for one of them encodes it again (and counts in :func:`encode_counts`).
    """
    return _ENCODED.forget(frames)


#: zlib level of PNG encoding: the fastest that compresses (level 1); ~3x faster than level 6
PNG_COMPRESS_LEVEL = 1


def _encode(pixels: NDArray[np.uint8], fmt: ImageFormat, quality: int) -> bytes:
    """Encode ``pixels`` as PNG (imagecodecs) or JPEG (Pillow) bytes, uncached.

    PNG: every row "Up"-filtered, zlib level 1 (~3 ms per 640×480 demo frame; the interpreter lock is
    released while it compresses, so worker threads encode in parallel).

    Raises:
        ValueError: ``pixels`` is not a non-empty (H, W, 3) uint8 array.
    """
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] != 3 or 0 in pixels.shape:
        raise ValueError(f"expected an (H, W, 3) uint8 RGB array, got {pixels.dtype} {pixels.shape}")
    pixels = np.ascontiguousarray(pixels)
    if fmt is ImageFormat.PNG:
        import imagecodecs  # lazy: its codecs load on first use

        return bytes(imagecodecs.png_encode(pixels, PNG_COMPRESS_LEVEL, filter=imagecodecs.PNG.FILTER.UP))
    from PIL import Image  # lazy: only JPEG needs it

    buffer = io.BytesIO()
    Image.fromarray(pixels, mode="RGB").save(buffer, format="JPEG", quality=quality)
    return buffer.getvalue()


def encode_image(pixels: NDArray[np.uint8], fmt: ImageFormat = ImageFormat.PNG, quality: int = 90) -> bytes:
    """Encode an RGB array of shape (H, W, 3), uint8, as PNG (lossless; zlib level 1) or JPEG bytes.

    Encoded once per distinct frame (digest, shape, format, quality); concurrent callers share it.

    Raises:
        ValueError: ``pixels`` is not a non-empty (H, W, 3) uint8 array.
    """
    return cast(bytes, _ENCODED.get(pixels, fmt, quality, "bytes"))


def image_base64(pixels: NDArray[np.uint8], fmt: ImageFormat = ImageFormat.PNG, quality: int = 90) -> str:
    """Base64 text (no data-URL prefix) of the encoded image (cached like :func:`encode_image`)."""
    return cast(str, _ENCODED.get(pixels, fmt, quality, "b64"))


def image_data_url(pixels: NDArray[np.uint8], fmt: ImageFormat = ImageFormat.PNG, quality: int = 90) -> str:
    """``data:image/...;base64,...`` URL of the encoded image (OpenAI-style ``image_url``; cached)."""
    return image_data_url_bytes(pixels, fmt, quality).data.decode("ascii")


def image_data_url_bytes(
    pixels: NDArray[np.uint8], fmt: ImageFormat = ImageFormat.PNG, quality: int = 90
) -> WireBytes:
    """Return the data URL of :func:`image_data_url` as its cached ASCII bytes (:func:`request_pieces`)."""
    return cast(WireBytes, _ENCODED.get(pixels, fmt, quality, "url"))


def request_pieces(payload: Any) -> list[bytes]:
    """Return a request body's compact UTF-8 JSON as pieces, each cached image its own piece (not copied).

    Sent one piece after the other (a streamed body with a Content-Length), a request holds no joined
    copy of its images (~6 MB for 32 demo frames), and the socket transport copies at most one piece's
    unsent rest instead of the body's: at concurrency 16 those copies (and h11's of every bytes subclass)
    landed in fresh memory each time, ~1,000 page faults per request (0.35 s of system CPU per 132 demo
    requests, on the event loop).

    :class:`WireBytes` (:func:`image_data_url_bytes`) and :class:`WireText` (:func:`image_base64`) values
    are spliced in as they are instead of being scanned for escapes (~50 ms through ``json.dumps`` for a
    5 MB body). The pieces joined equal ``json.dumps(payload, separators=(",", ":"),
    ensure_ascii=False).encode()`` with each WireBytes value read as its ASCII text.

    Raises:
        ValueError: a NaN or infinite float; TypeError: a value JSON cannot represent.
    """
    spliced: list[bytes] = []
    nonce = uuid.uuid4().hex
    marker = "\\u0000" + nonce  # how json.dumps writes the placeholder "\0<nonce>"; no real text holds it

    def strip(node: Any) -> Any:
        if isinstance(node, (WireText, WireBytes)):
            spliced.append(node.data if isinstance(node, WireBytes) else node.encode("ascii"))
            return "\0" + nonce
        if isinstance(node, dict):
            return {key: strip(value) for key, value in node.items()}
        if isinstance(node, (list, tuple)):
            return [strip(value) for value in node]
        return node

    skeleton = json.dumps(strip(payload), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    pieces = skeleton.split(marker)
    out = [pieces[0].encode("utf-8")]
    for data, piece in zip(spliced, pieces[1:], strict=True):
        out += [data, piece.encode("utf-8")]
    return out


def limit_images(request: Request, max_images: int | None, policy: ImageOverflow) -> Request:
    """Apply a per-request image limit to the images of all turns (counted in order).

    Raises:
        TooManyImagesError: more than ``max_images`` images and ``policy`` is ERROR.
    """
    n = request.n_images
    if max_images is None or n <= max_images:
        return request
    if policy is ImageOverflow.ERROR:
        raise TooManyImagesError(f"request has {n} images; this back end allows {max_images} (max_images)")
    keep = set(np.linspace(0, n - 1, max_images).round().astype(int).tolist())
    return request.keep_images(keep)
