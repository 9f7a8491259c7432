"""Question–frame relevance for AKS: an image–text model through ``transformers``, frame features cached.

AKS (Tang et al., CVPR 2025; the official ``feature_extract.py``) scores every candidate frame against
the question with CLIP (cosine similarity of ``get_image_features`` and ``get_text_features``) or BLIP's
image–text matching head. :class:`ImageTextScorer` loads any ``transformers`` model with both feature
methods (CLIP, SigLIP, ...; ``AutoModel`` / ``AutoProcessor``) and scores as the official CLIP branch
does. The question is the item's question text alone, as the official code sends ``data['question']``.

A frame's features do not depend on the question, so they are computed once per (media content,
candidate frames, model) and kept in memory and, with ``cache_dir``, on disk as
``<cache_dir>/<model tag>/<media digest>-<frames digest>.npz`` (``frames``, ``features``): the questions
about one video (VSI-Bench asks ~18) cost one image pass in all and one text pass each, and a re-run or
another run with the same cache folder costs none. torch and transformers are imported on first use
(extra ``hf``).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.media.errors import MediaError

#: the pixels of frames given by their numbers in the media, in the order given
FrameLoader = Callable[[NDArray[np.int64]], Sequence[NDArray[np.uint8]]]
#: relevance of the media's frames with these numbers (their pixels from the loader) to the question
FrameScores = Callable[[NDArray[np.int64], FrameLoader], NDArray[np.float64]]
#: frames per image forward pass
BATCH = 16
#: videos whose features stay in memory (the runner asks about one video after another; the rest is on disk)
KEPT = 8


class ImageTextScorer:
    """Cosine relevance of frames to a question from an image–text model, image features cached.

    Args:
        model: a local checkpoint folder or a Hugging Face model name (``openai/clip-vit-base-patch32``).
        cache_dir: folder of the on-disk feature cache (None: memory only).
        device: torch device (None: ``cuda`` when available, else ``cpu``).

    Attributes:
        image_passes: image forward passes run so far (one per :data:`BATCH` frames without features).
    """

    def __init__(self, model: str, cache_dir: Path | None = None, device: str | None = None) -> None:
        self.model, self.cache_dir, self.device = model, cache_dir, device
        self.image_passes = 0
        self._loaded: tuple[Any, Any, Any] | MediaError | None = None  # torch, model, processor; or why not
        self._features: OrderedDict[tuple[str, str], NDArray[np.float32]] = OrderedDict()
        self._lock = threading.RLock()  # one model: frames and questions of concurrent items take turns

    def scores(self, media: str, digest: str, query: str) -> FrameScores:
        """Return the scoring function for ``query`` over the frames of ``media`` (content ``digest``).

        The function raises MediaError (naming the media and the model) when the model cannot be loaded
        or fails on the frames.
        """

        def score(frames: NDArray[np.int64], load: FrameLoader) -> NDArray[np.float64]:
            try:
                images = self.image_features(media, digest, frames, load)
                text = self.text_features(media, query)
            except MediaError:  # a RuntimeError too: the model did not load, said once
                raise
            except (RuntimeError, ValueError) as exc:  # torch's errors, a processor refusing an input
                raise MediaError(media, f"the AKS scorer {self.model} failed ({exc})") from exc
            return (images @ text).astype(np.float64)

        return score

    def image_features(
        self, media: str, digest: str, frames: NDArray[np.int64], load: FrameLoader
    ) -> NDArray[np.float32]:
        """Unit-length image features of ``frames`` of ``media``, shape (len(frames), d), from the cache.

        Raises:
            MediaError: the model cannot be loaded or run (the message names the model and the media).
        """
        key = (digest, hashlib.sha256(np.asarray(frames, np.int64).tobytes()).hexdigest()[:16])
        with self._lock:
            if key in self._features:
                self._features.move_to_end(key)
            else:
                self._features[key] = (
                    self._read(key) if self._on_disk(key) else self._compute(media, key, frames, load)
                )
                if len(self._features) > KEPT:
                    self._features.popitem(last=False)
            return self._features[key]

    def text_features(self, media: str, query: str) -> NDArray[np.float32]:
        """Unit-length text features of ``query``, shape (d,) (truncated to the model's text length)."""
        with self._lock:
            torch, model, processor = self._model(media)
            inputs = processor(text=[query], return_tensors="pt", padding=True, truncation=True).to(
                model.device
            )
            with torch.no_grad():
                return _unit(_tensor(model.get_text_features(**inputs)))[0]

    def _compute(
        self, media: str, key: tuple[str, str], frames: NDArray[np.int64], load: FrameLoader
    ) -> NDArray[np.float32]:
        torch, model, processor = self._model(media)
        batches = []
        for start in range(0, len(frames), BATCH):
            pixels = list(load(frames[start : start + BATCH]))
            inputs = processor(images=pixels, return_tensors="pt").to(model.device)
            with torch.no_grad():
                batches.append(_unit(_tensor(model.get_image_features(**inputs))))
            self.image_passes += 1
        features = np.concatenate(batches)
        self._write(key, frames, features)
        return features

    def _model(self, media: str) -> tuple[Any, Any, Any]:
        """torch, the model and its processor, loaded on first use (a failure is kept: tried once)."""
        if self._loaded is None:
            try:
                self._loaded = _load(self.model, self.device, media)
            except MediaError as exc:
                self._loaded = exc
        if isinstance(self._loaded, MediaError):
            raise self._loaded
        return self._loaded

    def _path(self, key: tuple[str, str]) -> Path | None:
        if self.cache_dir is None:
            return None
        tag = hashlib.sha256(self.model.encode()).hexdigest()[:16]
        return self.cache_dir / tag / f"{key[0][:32]}-{key[1]}.npz"

    def _on_disk(self, key: tuple[str, str]) -> bool:
        path = self._path(key)
        return path is not None and path.is_file()

    def _read(self, key: tuple[str, str]) -> NDArray[np.float32]:
        with np.load(self._path(key)) as archive:  # type: ignore[arg-type]
            return np.asarray(archive["features"], dtype=np.float32)

    def _write(self, key: tuple[str, str], frames: NDArray[np.int64], features: NDArray[np.float32]) -> None:
        """Write the features atomically (a crashed run leaves no half file another run would read)."""
        path = self._path(key)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")
        with open(partial, "wb") as handle:
            np.savez(handle, frames=frames, features=features)
        os.replace(partial, path)


def _load(name: str, device: str | None, media: str) -> tuple[Any, Any, Any]:
    """Load ``name`` with ``AutoModel`` / ``AutoProcessor``; check it has both feature methods.

    Raises:
        MediaError: transformers missing, the model not loadable, or not an image–text embedding model.
    """
    try:
        import torch
        from transformers import AutoModel, AutoProcessor
    except ImportError as exc:
        raise MediaError(
            media, f"aks needs torch and transformers: pip install 'spatialbench[hf]' ({exc})"
        ) from exc
    try:
        model = AutoModel.from_pretrained(name)
        processor = AutoProcessor.from_pretrained(name)
    except (OSError, ValueError) as exc:
        raise MediaError(media, f"cannot load the AKS scorer model {name} ({exc})") from exc
    if not (hasattr(model, "get_image_features") and hasattr(model, "get_text_features")):
        raise MediaError(media, f"AKS scorer {name} ({type(model).__name__}) has no image and text features")
    target = device or ("cuda" if torch.cuda.is_available() else "cpu")
    return torch, model.to(target).eval(), processor


def _tensor(output: Any) -> Any:
    """Return the projected features: transformers 5 returns an output whose ``pooler_output`` holds them."""
    return output if hasattr(output, "detach") else output.pooler_output


def _unit(features: Any) -> NDArray[np.float32]:
    values = features.detach().float().cpu().numpy()
    return (values / np.linalg.norm(values, axis=-1, keepdims=True).clip(1e-12)).astype(np.float32)
