"""The two ways AKS scores a frame against a question, with a model loaded through ``transformers``.

The official ``feature_extract.py`` (AKS, Tang et al. CVPR 2025) has a CLIP branch and a BLIP branch:

- :class:`Cosine` — CLIP (``openai/clip-vit-base-patch32`` there): the cosine similarity of the frame's
  ``get_image_features`` and the question's ``get_text_features``. Any ``AutoModel`` with both methods
  (CLIP, SigLIP, ...) is scored this way. Kept per frame: its unit feature vector, shape (d,).
- :class:`Matching` — BLIP image–text matching (LAVIS ``blip_image_text_matching`` "large", AKS's default;
  in transformers a ``BlipForImageTextRetrieval`` checkpoint such as ``Salesforce/blip-itm-large-coco``):
  the match probability ``softmax(itm_head(...))[:, 1]``. The text encoder attends to the frame's vision
  tokens, so what is kept per frame is the vision encoder's output, shape (tokens, width), as float16;
  each question then runs the text encoder once per frame (in batches). The question goes through the
  checkpoint's own tokenizer (LAVIS's eval text processor lower-cases and drops punctuation first; the
  BERT tokenizer of BLIP lower-cases too).

torch and transformers are imported inside :func:`load_scorer` only (extra ``hf``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.media.errors import MediaError

#: frames per forward pass
BATCH = 16


class _Loaded:
    """A loaded model with its processor (and the torch module, imported on loading)."""

    def __init__(self, torch: Any, model: Any, processor: Any) -> None:
        self.torch, self.model, self.processor = torch, model, processor

    def _pixels(self, pixels: Sequence[NDArray[np.uint8]]) -> Any:
        """Return the processor's ``pixel_values`` of the frames, on the model's device."""
        return self.processor(images=list(pixels), return_tensors="pt").to(self.model.device)["pixel_values"]


class Cosine(_Loaded):
    """CLIP-style relevance: dot product of unit image and text features (the official CLIP branch)."""

    def images(self, pixels: Sequence[NDArray[np.uint8]]) -> NDArray[np.float32]:
        """Return unit image features, shape (len(pixels), d)."""
        values = self._pixels(pixels)
        with self.torch.no_grad():
            return _unit(_projected(self.model.get_image_features(pixel_values=values)))

    def relevance(self, features: NDArray[np.float32], query: str) -> NDArray[np.float64]:
        """Return the cosine similarity of each frame's ``features`` (n, d) with ``query``, shape (n,)."""
        inputs = self.processor(text=[query], return_tensors="pt", padding=True, truncation=True)
        with self.torch.no_grad():
            text = _unit(_projected(self.model.get_text_features(**inputs.to(self.model.device))))[0]
        return (features @ text).astype(np.float64)


class Matching(_Loaded):
    """BLIP image–text matching probability (the official BLIP branch, AKS's default scorer)."""

    def images(self, pixels: Sequence[NDArray[np.uint8]]) -> NDArray[np.float16]:
        """Return the vision encoder's tokens per frame, shape (len(pixels), tokens, width), float16."""
        values = self._pixels(pixels)
        with self.torch.no_grad():
            tokens = self.model.vision_model(pixel_values=values).last_hidden_state
        return tokens.detach().cpu().numpy().astype(np.float16)

    def relevance(self, features: NDArray[np.float16], query: str) -> NDArray[np.float64]:
        """Return the match probability of ``query`` with each frame (``features``: tokens), shape (n,)."""
        torch, model = self.torch, self.model
        text = self.processor(text=[query], return_tensors="pt", padding=True, truncation=True).to(
            model.device
        )
        scores = []
        for start in range(0, len(features), BATCH):
            tokens = torch.from_numpy(features[start : start + BATCH]).to(model.device, model.dtype)
            size = len(tokens)
            with torch.no_grad():
                attended = model.text_encoder(
                    input_ids=text["input_ids"].repeat(size, 1),
                    attention_mask=text["attention_mask"].repeat(size, 1),
                    encoder_hidden_states=tokens,
                    encoder_attention_mask=torch.ones(
                        tokens.shape[:-1], dtype=torch.long, device=model.device
                    ),
                ).last_hidden_state
                match = model.itm_head(attended[:, 0, :]).softmax(dim=-1)[:, 1]
            scores.append(match.float().cpu().numpy())
        return np.concatenate(scores).astype(np.float64)


def load_scorer(name: str, device: str | None, media: str) -> Cosine | Matching:
    """Load ``name``: a ``BlipForImageTextRetrieval`` checkpoint as :class:`Matching`, else :class:`Cosine`.

    ``device``: torch device (None: ``cuda`` when available, else ``cpu``).

    Raises:
        MediaError: transformers missing, the model not loadable, or neither kind of image–text model.
    """
    try:
        import torch
        import transformers
    except ImportError as exc:
        why = f"aks:N needs torch and transformers: pip install 'spatialbench[hf]' ({exc})"
        raise MediaError(media, why) from exc
    try:
        config = transformers.AutoConfig.from_pretrained(name)
        matching = "BlipForImageTextRetrieval" in (getattr(config, "architectures", None) or [])
        loader = transformers.BlipForImageTextRetrieval if matching else transformers.AutoModel
        model = loader.from_pretrained(name)
        processor = transformers.AutoProcessor.from_pretrained(name)
    except (OSError, ValueError) as exc:
        raise MediaError(media, f"cannot load the AKS scorer model {name} ({exc})") from exc
    if not matching and not (hasattr(model, "get_image_features") and hasattr(model, "get_text_features")):
        why = f"the AKS scorer {name} ({type(model).__name__}) has no image and text features and no ITM head"
        raise MediaError(media, why)
    target = device or ("cuda" if torch.cuda.is_available() else "cpu")
    model = model.to(target).eval()  # type: ignore[arg-type]  # transformers' stubs: .to(device) takes str
    return (Matching if matching else Cosine)(torch, model, processor)


def _projected(output: Any) -> Any:
    """Return the projected features: transformers 5 returns an output whose ``pooler_output`` holds them."""
    return output if hasattr(output, "detach") else output.pooler_output


def _unit(features: Any) -> NDArray[np.float32]:
    values = features.detach().float().cpu().numpy()
    return (values / np.linalg.norm(values, axis=-1, keepdims=True).clip(1e-12)).astype(np.float32)
