"""Tiny random CLIP and BLIP-ITM checkpoints built from configs (no download), saved as hub ones are.

Weights from ``torch.manual_seed(seed)``; a character-level ``CLIPTokenizer`` (one BPE token per letter,
no merges) and the PIL CLIP image processor at 32×32, so ``AutoModel`` / ``AutoProcessor`` load it offline.
"""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any

#: text and vision towers of both: one layer, width 16 (vision: 32×32 images, 8×8 patches)
SMALL = dict(hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2)


def save_tiny_clip(folder: Path, seed: int = 0) -> Path:
    """Write the checkpoint into ``folder`` (created) and return it."""
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
    config = CLIPConfig(
        text_config=dict(
            SMALL,
            vocab_size=len(vocab),
            max_position_embeddings=77,
            bos_token_id=0,
            eos_token_id=1,
            pad_token_id=1,
        ),
        vision_config=dict(SMALL, image_size=32, patch_size=8),
        projection_dim=8,
    )
    return _save(folder, seed, CLIPModel, config, CLIPProcessor(image_processor=images, tokenizer=tokenizer))


def save_tiny_blip_itm(folder: Path, seed: int = 0) -> Path:
    """Write a tiny random ``BlipForImageTextRetrieval`` (AKS's BLIP ITM scorer) into ``folder``; return it.

    A word-piece vocabulary of single characters (``BertTokenizer``, as BLIP's) and the PIL BLIP image
    processor at 32×32.
    """
    from transformers import (
        BertTokenizer,
        BlipConfig,
        BlipForImageTextRetrieval,
        BlipImageProcessorPil,
        BlipProcessor,
    )

    folder.mkdir(parents=True, exist_ok=True)
    chars = string.ascii_lowercase + string.digits
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *chars, *"?.,[]", *(f"##{c}" for c in chars)]
    (folder / "vocab.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    tokenizer = BertTokenizer(str(folder / "vocab.txt"))
    images = BlipImageProcessorPil(size={"height": 32, "width": 32})
    text = dict(SMALL, vocab_size=len(words), encoder_hidden_size=16, max_position_embeddings=64)
    config = BlipConfig(
        text_config=dict(text, pad_token_id=0, bos_token_id=2, sep_token_id=3),
        vision_config=dict(SMALL, image_size=32, patch_size=8),
        projection_dim=8,
    )
    processor = BlipProcessor(image_processor=images, tokenizer=tokenizer)
    return _save(folder, seed, BlipForImageTextRetrieval, config, processor)


def _save(folder: Path, seed: int, model_class: Any, config: Any, processor: Any) -> Path:
    """Save a model of ``model_class`` initialised from ``torch.manual_seed(seed)``, and its processor."""
    import torch

    torch.manual_seed(seed)
    model_class(config).save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder
