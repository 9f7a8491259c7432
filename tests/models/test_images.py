import numpy as np
import pytest

from spatialbench.models.errors import TooManyImagesError
from spatialbench.models.images import ImageFormat, ImageOverflow, encode_image, limit_images
from spatialbench.records.messages import ImagePart, Request, TextPart


def _image(value: int) -> ImagePart:
    return ImagePart(np.full((4, 4, 3), value, dtype=np.uint8))


def test_image_limit_error_or_evenly_spaced_subsample() -> None:
    request = Request(parts=(TextPart("q"), *[_image(v) for v in range(10)], TextPart("end")))
    with pytest.raises(TooManyImagesError, match="10 images.*allows 4"):
        limit_images(request, 4, ImageOverflow.ERROR)
    kept = limit_images(request, 4, ImageOverflow.SUBSAMPLE)
    values = [int(p.pixels[0, 0, 0]) for p in kept.parts if isinstance(p, ImagePart)]
    assert values == [0, 3, 6, 9]
    assert kept.parts[0] == TextPart("q") and kept.parts[-1] == TextPart("end")


def test_encode_png_roundtrips_and_jpeg_is_jpeg() -> None:
    import io

    from PIL import Image

    pixels = np.random.default_rng(1).integers(0, 256, (8, 6, 3), dtype=np.uint8)
    decoded = np.asarray(Image.open(io.BytesIO(encode_image(pixels))))
    assert np.array_equal(decoded, pixels)
    assert encode_image(pixels, ImageFormat.JPEG)[:2] == b"\xff\xd8"


def test_read_only_frames_are_encoded_once_and_mutable_arrays_every_time(monkeypatch) -> None:
    import spatialbench.models.images as images

    calls = []
    real = images._encode
    monkeypatch.setattr(images, "_encode", lambda *a: calls.append(1) or real(*a))
    frame = np.random.default_rng(2).integers(0, 256, (8, 8, 3), dtype=np.uint8)
    frame.setflags(write=False)
    first = images.image_data_url(frame)
    assert images.image_data_url(frame) == first and images.image_base64(frame) == first.split(",", 1)[1]
    assert len(calls) == 1
    copy = frame.copy()  # same content, another (writeable) array: encoded each time
    images.encode_image(copy)
    images.encode_image(copy)
    assert len(calls) == 3
