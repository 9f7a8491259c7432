"""PNG frames (imagecodecs via models/images.py): lossless (read back by Pillow), valid chunks, Up filter."""

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from spatialbench.models.images import ImageFormat, encode_image


def _png(pixels: np.ndarray) -> bytes:
    return encode_image(pixels, ImageFormat.PNG)


@pytest.mark.parametrize("shape", [(1, 1, 3), (7, 13, 3), (48, 64, 3), (480, 640, 3)])
def test_pixels_read_back_exactly(shape: tuple[int, int, int]) -> None:
    pixels = np.random.default_rng(sum(shape)).integers(0, 256, shape, dtype=np.uint8)
    image = Image.open(io.BytesIO(_png(pixels)))
    assert image.mode == "RGB" and image.size == (shape[1], shape[0])
    assert np.array_equal(np.asarray(image), pixels)


def test_a_strided_view_is_encoded_as_its_pixels() -> None:
    wide = np.random.default_rng(5).integers(0, 256, (20, 40, 3), dtype=np.uint8)
    view = wide[::2, 5:25]  # not contiguous
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(_png(view)))), view)


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """(kind, body) of each chunk, checking its length and CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, chunks = 8, []
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind, body = data[offset + 4 : offset + 8], data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(kind + body)
        chunks.append((kind, body))
        offset += 12 + length
    return chunks


def test_chunks_carry_lengths_and_crcs_and_the_header_describes_8_bit_rgb() -> None:
    chunks = _chunks(_png(np.zeros((3, 5, 3), dtype=np.uint8)))
    assert [kind for kind, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    assert struct.unpack(">IIBBBBB", chunks[0][1]) == (5, 3, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace


def test_rows_are_up_filtered() -> None:
    pixels = np.array([[[10, 20, 30]], [[15, 5, 30]]], dtype=np.uint8)  # 2 rows of 1 pixel
    idat = b"".join(body for kind, body in _chunks(_png(pixels)) if kind == b"IDAT")
    # hand computation: the filter byte 2 ("Up") on each row; row 0 minus a zero row is itself, row 1
    # minus row 0 mod 256 = (5, 241, 0)
    assert zlib.decompress(idat) == bytes([2, 10, 20, 30, 2, 5, 241, 0])


@pytest.mark.parametrize("fmt", list(ImageFormat))
@pytest.mark.parametrize("bad", [np.zeros((4, 4), np.uint8), np.zeros((4, 4, 4), np.uint8),
                                 np.zeros((4, 4, 3), np.float32), np.zeros((0, 4, 3), np.uint8)])
def test_an_array_that_is_not_rgb_uint8_is_a_clear_error(bad: np.ndarray, fmt: ImageFormat) -> None:
    with pytest.raises(ValueError, match=r"expected an \(H, W, 3\) uint8 RGB array"):
        encode_image(bad, fmt)
