"""The hf back end end to end on CPU with a tiny randomly initialised Qwen2.5-VL built here (no download)."""

import asyncio
from pathlib import Path

import numpy as np
import pytest

from spatialbench.media import parse_strategy, sample_video
from spatialbench.models.base import GenerationSettings, ImagePart, Request, TextPart
from spatialbench.models.errors import BackendError
from spatialbench.models.hf import chat_messages, generation_options, token_logprobs
from support.videos import encode_indexed_video, read_index

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

TEMPLATE = (Path(__file__).parent / "data" / "qwen2_vl_chat_template.jinja").read_text()
SPECIALS = [
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|image_pad|>",
    "<|video_pad|>",
]
VOCAB = {t: i for i, t in enumerate(SPECIALS + [chr(c) for c in range(32, 127)] + ["\n"])}
# Frames 112×84 with 28-pixel resize factor stay 112×84: 8×6 patches of 14 px, merged 2×2 → 12 tokens.
FRAME_W, FRAME_H, TOKENS_PER_FRAME = 112, 84, 12


def _tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    tok = Tokenizer(models.WordLevel(vocab=VOCAB, unk_token="<|endoftext|>"))
    tok.pre_tokenizer = pre_tokenizers.Split("", "isolated")  # one token per character
    tok.decoder = decoders.Fuse()
    tok.add_special_tokens(SPECIALS)
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>"
    )


def _config():
    text = dict(
        vocab_size=len(VOCAB),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        rope_parameters={"rope_type": "default", "mrope_section": [2, 1, 1], "rope_theta": 1e4},
        bos_token_id=0,
        eos_token_id=VOCAB["<|im_end|>"],
        pad_token_id=0,
    )
    vision = dict(
        depth=2,
        hidden_size=32,
        intermediate_size=64,
        num_heads=2,
        out_hidden_size=32,
        patch_size=14,
        spatial_merge_size=2,
        temporal_patch_size=2,
        window_size=56,
        fullatt_block_indexes=[1],
    )
    return transformers.Qwen2_5_VLConfig(
        text_config=text,
        vision_config=vision,
        image_token_id=VOCAB["<|image_pad|>"],
        video_token_id=VOCAB["<|video_pad|>"],
        vision_start_token_id=VOCAB["<|vision_start|>"],
        vision_end_token_id=VOCAB["<|vision_end|>"],
    )


@pytest.fixture(scope="module")
def tiny_qwen(tmp_path_factory) -> Path:
    """A saved folder like a hub checkpoint: weights, config, tokenizer, image processor, chat template."""
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

    folder = tmp_path_factory.mktemp("tiny-qwen2.5-vl")
    torch.manual_seed(0)
    transformers.Qwen2_5_VLForConditionalGeneration(_config()).save_pretrained(folder)
    _tokenizer().save_pretrained(folder)
    Qwen2VLImageProcessorPil(min_pixels=28 * 28, max_pixels=28 * 28 * 16).save_pretrained(folder)
    (folder / "chat_template.jinja").write_text(TEMPLATE)
    return folder


@pytest.fixture(scope="module")
def frames(tmp_path_factory) -> list[np.ndarray]:
    """4 uniformly sampled frames of a 20-frame h264 mp4 whose frames carry their own index."""
    video = encode_indexed_video(tmp_path_factory.mktemp("video") / "scene.mp4", 20, FRAME_W, FRAME_H)
    sampled = sample_video(str(video), parse_strategy("uniform:4"))
    assert [read_index(p) for p in sampled.pixels] == sampled.indices.tolist()
    assert sampled.indices[0] == 0 and sampled.indices[-1] == 19
    return list(sampled.pixels)


def _request(frames, max_new_tokens=6, logprobs=True) -> Request:
    parts = (*[ImagePart(f, label=f"Frame {i}:") for i, f in enumerate(frames)], TextPart("How many chairs?"))
    return Request(parts=parts, settings=GenerationSettings(max_new_tokens=max_new_tokens, logprobs=logprobs))


def _backend(folder: Path):
    from spatialbench.models.resolve import load_backend

    return load_backend(f"hf:{folder}", device="cpu", local_files_only=True)


def test_frames_end_to_end_places_image_tokens_and_bounds_output(tiny_qwen, frames) -> None:
    backend = _backend(tiny_qwen)
    response = asyncio.run(backend.generate(_request(frames)))
    assert response.raw["image_tokens"] == 4 * TOKENS_PER_FRAME
    # char-level tokenizer: prompt = template text + labels + question + 4 × (start, 12 pads, end)
    messages, _ = chat_messages(_request(frames))
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
    backend = _backend(tmp_path / "nowhere")
    with pytest.raises(BackendError, match="nowhere"):
        asyncio.run(backend.generate(Request(parts=(TextPart("hi"),))))


def test_chat_messages_keep_order_labels_and_history() -> None:
    pixels = np.zeros((2, 2, 3), np.uint8)
    request = Request(
        parts=(TextPart("Q"), ImagePart(pixels, label="t=1s"), ImagePart(pixels + 1)),
        system="S",
        history=(("user", (TextPart("earlier"),)), ("assistant", (TextPart("A"),))),
    )
    messages, images = chat_messages(request)
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[-1]["content"] == [
        {"type": "text", "text": "Q"},
        {"type": "text", "text": "t=1s"},
        {"type": "image"},
        {"type": "image"},
    ]
    assert [int(i.max()) for i in images] == [0, 1]


def test_greedy_options_override_checkpoint_defaults() -> None:
    options = generation_options(GenerationSettings(max_new_tokens=16, extra=(("repetition_penalty", 1.1),)))
    assert options["do_sample"] is False and options["max_new_tokens"] == 16
    assert options["repetition_penalty"] == 1.1  # extra wins over the greedy default of 1.0
    assert generation_options(GenerationSettings(temperature=0.7))["do_sample"] is True
