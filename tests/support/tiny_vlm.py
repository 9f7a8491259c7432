"""Tiny random vision-language checkpoints built from configs (no download), saved like hub ones.

Each builder (Qwen2.5-VL, LLaVA-OneVision, InternVL) writes weights, config, a character-level tokenizer
built with ``tokenizers``, the slow PIL image processor, the family's chat template and, where the family
has one, ``processor_config.json`` into a folder.
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "models" / "data"
QWEN_SPECIALS = [
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|image_pad|>",
    "<|video_pad|>",
]
LLAVA_SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<image>", "<video>"]
INTERNVL_SPECIALS = [
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<img>",
    "</img>",
    "<IMG_CONTEXT>",
    "<video>",
]
TEXT = dict(
    hidden_size=32,
    intermediate_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    bos_token_id=0,
    eos_token_id=2,
    pad_token_id=0,
)


def char_vocab(specials: list[str]) -> dict[str, int]:
    """Special tokens first (``<|im_end|>`` is id 2 in both families), then printable ASCII and newline."""
    return {t: i for i, t in enumerate(specials + [chr(c) for c in range(32, 127)] + ["\n"])}


def save_tokenizer(folder: Path, specials: list[str], extra: dict[str, str] | None = None) -> dict[str, int]:
    """Save a one-token-per-character tokenizer (``extra``: named special tokens); return its vocabulary."""
    import transformers
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    vocab = char_vocab(specials)
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<|endoftext|>"))
    tok.pre_tokenizer = pre_tokenizers.Split("", "isolated")
    tok.decoder = decoders.Fuse()
    tok.add_special_tokens(specials)
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        extra_special_tokens=extra or {},
    )
    fast.save_pretrained(folder)
    return vocab


def build_qwen2_5_vl(folder: Path) -> Path:
    """Qwen2.5-VL: 14-px patches, 2×2 merge, 28–112 px per side allowed (min/max pixels 28², 28²·16)."""
    import torch
    import transformers
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

    vocab = save_tokenizer(folder, QWEN_SPECIALS)
    rope = {"rope_type": "default", "mrope_section": [2, 1, 1], "rope_theta": 1e4}
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
    config = transformers.Qwen2_5_VLConfig(
        text_config={
            **TEXT,
            "vocab_size": len(vocab),
            "rope_parameters": rope,
            "max_position_embeddings": 4096,
        },
        vision_config=vision,
        image_token_id=vocab["<|image_pad|>"],
        video_token_id=vocab["<|video_pad|>"],
        vision_start_token_id=vocab["<|vision_start|>"],
        vision_end_token_id=vocab["<|vision_end|>"],
    )
    torch.manual_seed(0)
    transformers.Qwen2_5_VLForConditionalGeneration(config).save_pretrained(folder)
    Qwen2VLImageProcessorPil(min_pixels=28 * 28, max_pixels=28 * 28 * 16).save_pretrained(folder)
    (folder / "chat_template.jinja").write_text((DATA / "qwen2_vl_chat_template.jinja").read_text())
    return folder


def build_llava_onevision(folder: Path) -> Path:
    """LLaVA-OneVision: SigLIP on 28-px crops (2×2 patches = 4 base tokens), anyres tiles up to 56 px."""
    import torch
    import transformers
    from transformers.models.llava_onevision.image_processing_pil_llava_onevision import (
        LlavaOnevisionImageProcessorPil,
    )

    vocab = save_tokenizer(folder, LLAVA_SPECIALS)
    pinpoints = [[28, 28], [28, 56], [56, 28], [56, 56]]
    config = transformers.LlavaOnevisionConfig(
        text_config={**TEXT, "model_type": "qwen2", "vocab_size": len(vocab)},
        vision_config=dict(
            model_type="siglip_vision_model",
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=2,
            image_size=28,
            patch_size=14,
        ),
        image_token_index=vocab["<image>"],
        video_token_index=vocab["<video>"],
        image_grid_pinpoints=pinpoints,
        vision_feature_select_strategy="full",
    )
    torch.manual_seed(0)
    transformers.LlavaOnevisionForConditionalGeneration(config).save_pretrained(folder)
    crop = {"height": 28, "width": 28}
    LlavaOnevisionImageProcessorPil(
        size=crop, crop_size=crop, image_grid_pinpoints=pinpoints
    ).save_pretrained(folder)
    (folder / "chat_template.jinja").write_text((DATA / "llava_onevision_chat_template.jinja").read_text())
    processor = {
        "processor_class": "LlavaOnevisionProcessor",
        "num_image_tokens": 4,
        "vision_feature_select_strategy": "full",
        "vision_aspect_ratio": "anyres_max_9",
    }
    (folder / "processor_config.json").write_text(json.dumps(processor))
    return folder


def build_internvl(folder: Path) -> Path:
    """InternVL (``-hf`` layout): 28-px tiles, 1 token per tile (2×2 patches, downsample 0.5), ≤ 4 tiles."""
    import torch
    import transformers
    from transformers.models.got_ocr2.image_processing_pil_got_ocr2 import GotOcr2ImageProcessorPil

    names = {
        "start_image_token": "<img>",
        "end_image_token": "</img>",
        "context_image_token": "<IMG_CONTEXT>",
    }
    vocab = save_tokenizer(folder, INTERNVL_SPECIALS, extra={**names, "video_token": "<video>"})
    config = transformers.InternVLConfig(
        vision_config=dict(
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=2,
            image_size=[28, 28],
            patch_size=[14, 14],
        ),
        text_config={**TEXT, "model_type": "qwen2", "vocab_size": len(vocab)},
        image_token_id=vocab["<IMG_CONTEXT>"],
        image_seq_length=1,
        downsample_ratio=0.5,
    )
    torch.manual_seed(0)
    transformers.InternVLForConditionalGeneration(config).save_pretrained(folder)
    size = {"height": 28, "width": 28}
    GotOcr2ImageProcessorPil(size=size, crop_to_patches=True, min_patches=1, max_patches=4).save_pretrained(
        folder
    )
    (folder / "chat_template.jinja").write_text((DATA / "internvl_chat_template.jinja").read_text())
    processor = {"processor_class": "InternVLProcessor", "image_seq_length": 1}
    (folder / "processor_config.json").write_text(json.dumps(processor))
    return folder
