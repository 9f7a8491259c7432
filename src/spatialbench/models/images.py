"""Images sent to an API: encoding (PNG / JPEG, cached per frame array) and the per-request image limit."""

from __future__ import annotations

import base64
import io
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from enum import StrEnum
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.models.errors import TooManyImagesError
from spatialbench.records.messages import Request


class ImageOverflow(StrEnum):
    """What to do with a request holding more images than ``max_images``."""

    ERROR = "error"  # raise TooManyImagesError (recorded against the item)
    SUBSAMPLE = "subsample"  # keep max_images evenly spaced images, drop the rest


class ImageFormat(StrEnum):
    """Encoding of images sent to an API."""

    PNG = "png"
    JPEG = "jpeg"



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
