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


def test_read_only_frames_are_encoded_once_and_copies_share_the_encoding(monkeypatch) -> None:
    import spatialbench.models.images as images

    calls = []
    real = images._encode
    monkeypatch.setattr(images, "_encode", lambda *a: calls.append(1) or real(*a))
    frame = np.random.default_rng(2).integers(0, 256, (8, 8, 3), dtype=np.uint8)
    frame.setflags(write=False)
    first = images.image_data_url(frame)
    assert images.image_data_url(frame) == first
    assert len(calls) == 1
    assert images.image_base64(frame) == first.split(",", 1)[1]  # another form: encoded for it
    copy = frame.copy()  # same content, another (writeable) array: keyed by digest, no new encoding
    images.image_data_url(copy)
    assert len(calls) == 2
    copy[0, 0, 0] ^= 1  # changed in place: a new digest, a new encoding
    images.image_data_url(copy)
    assert len(calls) == 3


def test_concurrent_requests_for_one_frame_encode_it_once(monkeypatch) -> None:
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    import spatialbench.models.images as images

    calls = []
    real = images._encode
    started = threading.Event()

    def slow(*args):
        calls.append(1)
        started.set()
        time.sleep(0.05)  # every other thread arrives while this one encodes
        return real(*args)

    monkeypatch.setattr(images, "_encode", slow)
    frames = [np.full((6, 6, 3), v, dtype=np.uint8) for v in (11, 12)]
    with ThreadPoolExecutor(16) as pool:
        urls = list(pool.map(lambda i: images.image_data_url(frames[i % 2]), range(32)))
    assert len(calls) == 2
    assert len(set(urls)) == 2 and urls[0] != urls[1]
    counts = images.encode_counts()
    for frame in frames:
        assert counts[(images._ENCODED.digest(frame), (6, 6, 3), "png", 90)] == 1


def test_a_failed_encoding_raises_for_every_waiter_and_is_retried_later(monkeypatch) -> None:
    import spatialbench.models.images as images

    frame = np.full((4, 4, 3), 99, dtype=np.uint8)
    monkeypatch.setattr(images, "_encode", lambda *a: (_ for _ in ()).throw(OSError("disk gone")))
    with pytest.raises(OSError, match="disk gone"):
        images.encode_image(frame)
    monkeypatch.undo()
    assert images.encode_image(frame)[:8] == b"\x89PNG\r\n\x1a\n"


def test_png_is_written_at_zlib_level_1() -> None:
    import io
    import zlib

    from PIL import Image

    pixels = np.random.default_rng(3).integers(0, 4, (64, 64, 3), dtype=np.uint8)
    data = encode_image(pixels)
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(data))), pixels)
    start = data.index(b"IDAT") + 4
    assert data[start + 1] & 0xC0 == 0x00  # zlib header FLEVEL 0: "fastest" (levels 0-1)
    assert zlib.decompress(data[start:]).__len__() == 64 * (1 + 64 * 3)


def test_request_pieces_splice_images_and_equal_json_dumps() -> None:
    import json

    from spatialbench.models.images import image_base64, image_data_url, image_data_url_bytes, request_pieces

    pixels = np.full((4, 4, 3), 7, dtype=np.uint8)

    def payload(url, b64):  # type: ignore[no-untyped-def]
        image = {"type": "image_url", "image_url": {"url": url}}
        text = {"type": "text", "text": 'say "é"\n\0x'}
        return {"model": "m", "messages": [{"role": "user", "content": [text, image, {"data": b64}]}],
                "temperature": 0.0, "max_tokens": None}

    body = payload(image_data_url_bytes(pixels), image_base64(pixels))  # bytes, text
    spliced = b"".join(request_pieces(body))
    plain = payload(image_data_url(pixels), str(image_base64(pixels)))
    assert spliced == json.dumps(plain, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    assert json.loads(spliced) == plain
    with pytest.raises(ValueError):
        request_pieces({"x": float("nan")})


def test_run_command_sends_jpeg_at_the_chosen_quality_and_records_it(tmp_path) -> None:
    import base64
    import io
    import json

    from PIL import Image
    from typer.testing import CliRunner

    from spatialbench.cli.main import app
    from support.openai_server import OpenAIServer
    from support.vsi_data import make_vsibench

    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=2)

    def run(server, *encoding: str):
        return CliRunner().invoke(app, [
            "run", "--benchmark", "vsibench", "--data", str(root), "--frames", "uniform:2",
            "--model", f"openai-compatible:{server.url}#m", "--out", str(tmp_path / "run"), *encoding,
        ])

    with OpenAIServer() as server:
        result = run(server, "--image-format", "jpeg", "--jpeg-quality", "40")
        assert result.exit_code == 0, result.output
        assert len(server.script.log) == 2
        run(server, "--image-format", "jpeg", "--jpeg-quality", "40")  # the same request: resumed
        assert len(server.script.log) == 2
        run(server, "--image-format", "jpeg", "--jpeg-quality", "41")  # other pixels: asked again
        assert len(server.script.log) == 4
    urls = [
        part["image_url"]["url"]
        for logged in server.script.log[:2]
        for message in logged.body["messages"]
        for part in message["content"] if isinstance(part, dict) and part["type"] == "image_url"
    ]
    assert len(urls) == 4 and all(u.startswith("data:image/jpeg;base64,/9j/") for u in urls)
    image = Image.open(io.BytesIO(base64.b64decode(urls[0].split(",", 1)[1])))
    assert image.format == "JPEG" and image.size == (64, 64)
    model = json.loads((tmp_path / "run" / "config.json").read_text())["config"]["model"]
    assert (model["image_format"], model["jpeg_quality"]) == ("jpeg", 41)
