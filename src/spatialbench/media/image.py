"""Image loading and the resize policy (by maximum pixel count)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from spatialbench.media.errors import MediaError


def resize_to_max_pixels(pixels: NDArray[np.uint8], max_pixels: int | None) -> NDArray[np.uint8]:
    """Downscale an (H, W, 3) uint8 image, keeping aspect ratio, so that H·W <= ``max_pixels``.

    Images already small enough (or ``max_pixels`` None) are returned unchanged. Uses bicubic resampling.
    """
    height, width = pixels.shape[:2]
    if max_pixels is None or height * width <= max_pixels:
        return pixels
    from PIL import Image

    scale = math.sqrt(max_pixels / (height * width))
    size = (max(1, math.floor(width * scale)), max(1, math.floor(height * scale)))
    return np.asarray(Image.fromarray(pixels).resize(size, Image.Resampling.BICUBIC))


def load_image(path: str) -> NDArray[np.uint8]:
    """Read an image file as RGB, shape (H, W, 3), uint8.

    Raises:
        MediaError: missing or unreadable file.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            return np.asarray(image.convert("RGB"))
    except FileNotFoundError:
        raise MediaError(path, "image file not found") from None
    except (UnidentifiedImageError, OSError) as exc:
        raise MediaError(path, f"unreadable image ({exc})") from exc
