import asyncio

import numpy as np
import pytest

from spatialbench.models.api import (
    ApiBackend,
    ApiSettings,
    ImageFormat,
    ImageOverflow,
    RetryPolicy,
    call_with_retries,
    encode_image,
    limit_images,
    parse_retry_after,
)
from spatialbench.models.errors import BackendError, RetryableError, TooManyImagesError
from spatialbench.models.resolve import load_backend, model_family, split_model_name
from spatialbench.records.messages import ImagePart, Request, Response, TextPart
from spatialbench.registry import UnknownNameError


def _image(value: int) -> ImagePart:
    return ImagePart(np.full((4, 4, 3), value, dtype=np.uint8))


def test_backoff_grows_and_honours_retry_after() -> None:
    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=8.0)
    rng = np.random.default_rng(0)
    delays = [policy.delay(k, None, rng) for k in range(6) for _ in range(200)]
    assert max(delays[:200]) <= 1.0 and max(delays[-200:]) <= 8.0 and max(delays[-200:]) > 4.0
    assert policy.delay(0, 30.0, rng) == 30.0


def test_parse_retry_after_seconds_and_date() -> None:
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == pytest.approx(10.0)
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None


def test_retries_transient_then_succeeds_and_waits_retry_after() -> None:
    calls, waits = [], []

    async def attempt() -> Response:
        calls.append(1)
        if len(calls) < 3:
            raise RetryableError("429", retry_after=2.5)
        return Response(text="ok")

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    out = asyncio.run(
        call_with_retries(attempt, policy=RetryPolicy(base_delay_s=0.01), timeout_s=1.0,
                          classify=lambda e: None, rng=np.random.default_rng(0), sleep=sleep)
    )
    assert out.text == "ok" and len(calls) == 3 and waits == [2.5, 2.5]


def test_permanent_error_is_not_retried_and_timeout_gives_up() -> None:
    calls = []

    async def bad() -> Response:
        calls.append(1)
        raise ValueError("400 bad request")

    async def slow() -> Response:
        await asyncio.sleep(1.0)
        return Response(text="late")

    async def no_sleep(_: float) -> None:
        return None

    kwargs = dict(policy=RetryPolicy(max_attempts=3), classify=lambda e: None,
                  rng=np.random.default_rng(0), sleep=no_sleep)
    with pytest.raises(BackendError, match="400 bad request"):
        asyncio.run(call_with_retries(bad, timeout_s=1.0, **kwargs))
    assert len(calls) == 1
    with pytest.raises(BackendError, match="gave up after 3 attempts: request timed out"):
        asyncio.run(call_with_retries(slow, timeout_s=0.01, **kwargs))


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


def test_concurrency_is_bounded() -> None:
    class Probe(ApiBackend):
        provider = "probe"
        active = peak = 0

        async def _send(self, request: Request) -> Response:
            Probe.active += 1
            Probe.peak = max(Probe.peak, Probe.active)
            await asyncio.sleep(0.01)
            Probe.active -= 1
            return Response(text="x")

    backend = Probe(ApiSettings(concurrency=3))

    async def main() -> None:
        await asyncio.gather(*[backend.generate(Request(parts=(TextPart("q"),))) for _ in range(20)])

    asyncio.run(main())
    assert Probe.peak == 3


def test_model_names() -> None:
    assert split_model_name("openai-compatible:http://127.0.0.1:8000/v1#Qwen2.5-VL-7B") == (
        "openai-compatible", "http://127.0.0.1:8000/v1#Qwen2.5-VL-7B")
    assert split_model_name("chance-frequency") == ("chance-frequency", "")
    assert model_family("openai:gpt-4o") == "proprietary" and model_family("hf:/m") == "open"
    with pytest.raises(UnknownNameError, match="did you mean 'openai'"):
        load_backend("opnai:gpt-4o")


def test_read_only_frames_are_encoded_once_and_mutable_arrays_every_time(monkeypatch) -> None:
    import spatialbench.models.api as api

    calls = []
    real = api._encode
    monkeypatch.setattr(api, "_encode", lambda *a: calls.append(1) or real(*a))
    frame = np.random.default_rng(2).integers(0, 256, (8, 8, 3), dtype=np.uint8)
    frame.setflags(write=False)
    first = api.image_data_url(frame)
    assert api.image_data_url(frame) == first and api.image_base64(frame) == first.split(",", 1)[1]
    assert len(calls) == 1
    copy = frame.copy()  # same content, another (writeable) array: encoded each time
    api.encode_image(copy)
    api.encode_image(copy)
    assert len(calls) == 3
