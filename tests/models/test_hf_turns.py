"""A conversation of turns through the hf back end on CPU (tiny random Qwen2.5-VL, no download)."""

import asyncio

import numpy as np
import pytest

from spatialbench.models.hf_messages import chat_inputs
from spatialbench.records.messages import GenerationSettings, ImagePart, Request, TextPart
from support.tiny_vlm import build_qwen2_5_vl

pytest.importorskip("torch")
pytest.importorskip("transformers")


def test_followup_turn_keeps_the_frames_once_and_counts_every_turn(tmp_path) -> None:
    from spatialbench.models.resolve import load_backend

    backend = load_backend(f"hf:{build_qwen2_5_vl(tmp_path / 'qwen')}", device="cpu", local_files_only=True)
    frames = [np.full((84, 112, 3), 40 * k, dtype=np.uint8) for k in range(2)]
    first = Request(
        parts=(*map(ImagePart, frames), TextPart("How many chairs? Let's think step by step.")),
        settings=GenerationSettings(max_new_tokens=4),
    )
    reasoning = asyncio.run(backend.generate(first))
    follow = first.followup(reasoning.text, (TextPart("State only the number."),))
    answer = asyncio.run(backend.generate(follow))
    messages = chat_inputs(follow).messages
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert answer.raw["image_tokens"] == reasoning.raw["image_tokens"] == 2 * 12  # the frames once
    text = backend._processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    assert reasoning.text in text and "State only the number." in text
    assert answer.input_tokens > reasoning.input_tokens
