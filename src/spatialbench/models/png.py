"""A lean PNG writer for RGB frames: the "Up" filter on every row, zlib at level 1.

Pillow's PNG encoder (level 1) costs ~8 ms per 640×480 frame, much of it holding the interpreter lock;
filtering with numpy and compressing with :func:`zlib.compress` (which releases the lock) costs ~3 ms and
gives files of about the same size (demo frames: 115 KB against Pillow's 116 KB). Decoders read the
pixels back exactly (lossless; checked against Pillow in the tests). PNG 1.2 (ISO/IEC 15948): one IHDR
(8-bit truecolour), one IDAT, IEND.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np
from numpy.typing import NDArray

#: zlib level of PNG encoding: the fastest that compresses (level 1); ~3x faster than Pillow's default 6
PNG_COMPRESS_LEVEL = 1
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_UP = 2  # PNG filter type "Up": each byte minus the byte above it (mod 256)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(pixels: NDArray[np.uint8]) -> bytes:
    """Encode an RGB array of shape (H, W, 3), uint8, as PNG bytes (Up filter, zlib level 1).

    Raises:
        ValueError: ``pixels`` is not a non-empty (H, W, 3) uint8 array.
    """
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] != 3 or 0 in pixels.shape:
        raise ValueError(f"expected an (H, W, 3) uint8 RGB array, got {pixels.dtype} {pixels.shape}")
    height, width, _ = pixels.shape
    rows = np.ascontiguousarray(pixels).reshape(height, width * 3)
    lines = np.empty((height, 1 + width * 3), dtype=np.uint8)
    lines[:, 0] = _UP
    lines[0, 1:] = rows[0]  # the row above the first is zeros
    np.subtract(rows[1:], rows[:-1], out=lines[1:, 1:])  # uint8: wraps mod 256, as the filter does
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, deflate, no interlace
    data = zlib.compress(lines.data, PNG_COMPRESS_LEVEL)
    return _SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")
