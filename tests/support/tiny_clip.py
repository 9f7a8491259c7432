"""A tiny random CLIP checkpoint built from a config (no download), saved as a hub one is.

Weights from ``torch.manual_seed(seed)``; a character-level ``CLIPTokenizer`` (one BPE token per letter,
no merges) and the PIL CLIP image processor at 32×32, so ``AutoModel`` / ``AutoProcessor`` load it offline.
"""

from __future__ import annotations

import json
import string
from pathlib import Path


def save_tiny_clip(folder: Path, seed: int = 0) -> Path:
    """Write the checkpoint into ``folder`` (created) and return it."""
    import torch
    from transformers import CLIPConfig, CLIPImageProcessorPil, CLIPModel, CLIPProcessor, CLIPTokenizer

    folder.mkdir(parents=True, exist_ok=True)
    vocab = {"<|startoftext|>": 0, "<|endoftext|>": 1}
    for char in string.ascii_lowercase + string.digits + "?.,[]":
        vocab[char] = len(vocab)
        vocab[char + "</w>"] = len(vocab)
    (folder / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    (folder / "merges.txt").write_text("#version: 0.2\n", encoding="utf-8")
    tokenizer = CLIPTokenizer(str(folder / "vocab.json"), str(folder / "merges.txt"))
    images = CLIPImageProcessorPil(size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32})
    small = dict(hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2)
    config = CLIPConfig(
        text_config=dict(
            small,
            vocab_size=len(vocab),
            max_position_embeddings=77,
            bos_token_id=0,
            eos_token_id=1,
            pad_token_id=1,
        ),
        vision_config=dict(small, image_size=32, patch_size=8),
        projection_dim=8,
    )
    torch.manual_seed(seed)
    CLIPModel(config).save_pretrained(folder)
    CLIPProcessor(image_processor=images, tokenizer=tokenizer).save_pretrained(folder)
    return folder
