"""The hf back end end to end on CPU: tiny random Qwen2.5-VL and LLaVA-OneVision (no download)."""

import asyncio
from pathlib import Path

import numpy as np
import pytest

from spatialbench.media import parse_strategy, sample_video
from spatialbench.models.errors import BackendError
from spatialbench.models.hf import generation_options, token_logprobs
from spatialbench.models.hf_messages import FramesAs, chat_inputs
from spatialbench.records.messages import GenerationSettings, ImagePart, Request, TextPart
from support.tiny_vlm import build_internvl, build_llava_onevision, build_qwen2_5_vl
from support.videos import encode_indexed_video, read_index

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
from transformers.utils import is_torchvision_available  # noqa: E402

# Frames 112×84 with 28-pixel resize factor stay 112×84: 8×6 patches of 14 px, merged 2×2 → 12 tokens.
FRAME_W, FRAME_H, TOKENS_PER_FRAME = 112, 84, 12


@pytest.fixture(scope="module")
def tiny_qwen(tmp_path_factory) -> Path:
    return build_qwen2_5_vl(tmp_path_factory.mktemp("tiny-qwen2.5-vl"))


@pytest.fixture(scope="module")
def frames(tmp_path_factory) -> list[np.ndarray]:
    """4 uniformly sampled frames of a 20-frame h264 mp4 whose frames carry their own index."""
    video = encode_indexed_video(tmp_path_factory.mktemp("video") / "scene.mp4", 20, FRAME_W, FRAME_H)
    sampled = sample_video(str(video), parse_strategy("uniform:4"))
    assert [read_index(p) for p in sampled.pixels] == sampled.indices.tolist()
    assert sampled.indices[0] == 0 and sampled.indices[-1] == 19
    return list(sampled.pixels)


def _request(frames, max_new_tokens=6, logprobs=True, labels=True) -> Request:
    images = [ImagePart(f, label=f"Frame {i}:" if labels else None) for i, f in enumerate(frames)]
    parts = (*images, TextPart("How many chairs?"))
    return Request(parts=parts, settings=GenerationSettings(max_new_tokens=max_new_tokens, logprobs=logprobs))


def _backend(folder: Path, **options):
    from spatialbench.models.resolve import load_backend

    return load_backend(f"hf:{folder}", device="cpu", local_files_only=True, **options)


def test_frames_end_to_end_places_image_tokens_and_bounds_output(tiny_qwen, frames) -> None:
    backend = _backend(tiny_qwen)
    response = asyncio.run(backend.generate(_request(frames)))
    assert response.raw["image_tokens"] == 4 * TOKENS_PER_FRAME
    # char-level tokenizer: prompt = template text + labels + question + 4 × (start, 12 pads, end)
    messages = chat_inputs(_request(frames)).messages
    text_only = backend._processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    assert response.input_tokens == len(backend._processor.tokenizer(text_only).input_ids) + 4 * 11
    assert 1 <= response.output_tokens <= 6
    assert len(response.logprobs) == response.output_tokens
    assert all(lp.logprob <= 0.0 for lp in response.logprobs)


def test_greedy_is_deterministic_and_picks_the_argmax(tiny_qwen, frames) -> None:
    backend = _backend(tiny_qwen)
    (first, trace), (second, _) = [
        asyncio.run(backend.generate_with_trace(_request(frames, max_new_tokens=8), hidden_states=True))
        for _ in range(2)
    ]
    assert first.text == second.text and first.logprobs == second.logprobs
    np.testing.assert_array_equal(trace.token_ids, trace.logits.argmax(axis=1))
    np.testing.assert_allclose(
        [lp.logprob for lp in first.logprobs], token_logprobs(trace.logits, trace.token_ids), rtol=1e-6
    )
    # hidden states: (steps, embeddings + 2 layers, hidden size 32)
    assert trace.hidden_states.shape == (first.output_tokens, 3, 32)


@pytest.mark.slow
def test_llava_onevision_frames_through_anyres_tiles(tmp_path, frames) -> None:
    folder = build_llava_onevision(tmp_path / "tiny-llava-ov")
    response = asyncio.run(_backend(folder).generate(_request(frames[:3], max_new_tokens=4)))
    # the model itself checks that placeholder tokens match its image features; each frame adds the same
    # count, more than the 4 base tokens because anyres tiles are added
    assert response.raw["image_tokens"] % 3 == 0 and response.raw["image_tokens"] // 3 > 4
    assert response.output_tokens == len(response.logprobs) <= 4


@pytest.mark.slow
def test_internvl_frames_as_tiles(tmp_path, frames) -> None:
    folder = build_internvl(tmp_path / "tiny-internvl")
    response = asyncio.run(_backend(folder).generate(_request(frames[:3], max_new_tokens=4)))
    # 112×84 (aspect 1.33): grids 1×1 and 2×2 tie on aspect; the image is larger than half of 2×2 tiles
    # (9408 > 0.5·4·28²) so 2×2 wins → 4 tiles + 1 thumbnail, 1 token each → 5 tokens per frame
    assert response.raw["image_tokens"] == 3 * 5
    assert response.output_tokens == len(response.logprobs) <= 4


@pytest.mark.skipif(is_torchvision_available(), reason="checks the error without torchvision")
def test_video_mode_without_torchvision_is_a_clear_error(tiny_qwen, frames) -> None:
    with pytest.raises(BackendError, match="frames_as=video needs torchvision"):
        asyncio.run(_backend(tiny_qwen, frames_as="video").generate(_request(frames, labels=False)))


@pytest.mark.skipif(not is_torchvision_available(), reason="video processors need torchvision")
def test_video_mode_merges_frame_pairs(tiny_qwen, frames) -> None:
    response = asyncio.run(_backend(tiny_qwen, frames_as="video").generate(_request(frames, labels=False)))
    # 4 frames → temporal patch 2 → grid (2, 6, 8) → 2·48/4 = 24 tokens: half of images mode
    assert (response.raw["video_tokens"], response.raw["image_tokens"]) == (2 * TOKENS_PER_FRAME, 0)
    assert 1 <= response.output_tokens <= 6


def test_text_only_request_without_logprobs(tiny_qwen) -> None:
    request = Request(
        parts=(TextPart("Is the sofa left of the bed?"),),
        system="Answer briefly.",
        settings=GenerationSettings(max_new_tokens=3),
    )
    response = asyncio.run(_backend(tiny_qwen).generate(request))
    assert response.logprobs is None and response.raw["image_tokens"] == 0
    assert response.output_tokens <= 3


def test_missing_model_folder_names_the_path(tmp_path) -> None:
    with pytest.raises(BackendError, match="nowhere"):  # when the back end is built, before any item
        asyncio.run(_backend(tmp_path / "nowhere").generate(Request(parts=(TextPart("hi"),))))


def test_chat_inputs_keep_order_labels_and_history() -> None:
    pixels = np.zeros((2, 2, 3), np.uint8)
    request = Request(
        parts=(TextPart("Q"), ImagePart(pixels, label="t=1s"), ImagePart(pixels + 1)),
        system="S",
        history=(("user", (TextPart("earlier"),)), ("assistant", (TextPart("A"),))),
    )
    chat = chat_inputs(request)
    assert [m["role"] for m in chat.messages] == ["system", "user", "assistant", "user"]
    assert chat.messages[-1]["content"] == [
        {"type": "text", "text": "Q"},
        {"type": "text", "text": "t=1s"},
        {"type": "image"},
        {"type": "image"},
    ]
    assert [int(i.max()) for i in chat.images] == [0, 1] and chat.videos == []


def test_video_mode_groups_runs_of_frames_and_refuses_labels() -> None:
    frame = np.zeros((2, 2, 3), np.uint8)
    parts = (TextPart("A:"), ImagePart(frame), ImagePart(frame + 1), TextPart("B:"), ImagePart(frame + 2))
    chat = chat_inputs(Request(parts=parts), FramesAs.VIDEO)
    assert [item["type"] for item in chat.messages[-1]["content"]] == ["text", "video", "text", "video"]
    assert [v.shape for v in chat.videos] == [(2, 2, 2, 3), (1, 2, 2, 3)] and chat.images == []
    with pytest.raises(BackendError, match="frame label 't=0s'"):
        chat_inputs(Request(parts=(ImagePart(frame, label="t=0s"),)), FramesAs.VIDEO)


def test_greedy_options_override_checkpoint_defaults() -> None:
    options = generation_options(GenerationSettings(max_new_tokens=16, extra=(("repetition_penalty", 1.1),)))
    assert options["do_sample"] is False and options["max_new_tokens"] == 16
    assert options["repetition_penalty"] == 1.1  # extra wins over the greedy default of 1.0
    assert "temperature" not in options and "top_k" not in options  # greedy ignores them
    sampled = generation_options(GenerationSettings(temperature=0.7, top_p=0.9))
    assert (sampled["do_sample"], sampled["temperature"], sampled["top_p"]) == (True, 0.7, 0.9)
