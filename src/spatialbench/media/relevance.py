"""Question–frame relevance for AKS: an image–text model through ``transformers``, frame features cached.

AKS (Tang et al., CVPR 2025; the official ``feature_extract.py``) scores every candidate frame against
the question with CLIP (cosine similarity) or BLIP (image–text matching); :mod:`spatialbench.media.
scorer_models` holds both. The question is the item's question text alone, as the official code sends
``data['question']``.

A frame's features do not depend on the question, so :class:`ImageTextScorer` computes them once per
(media content, candidate frames, model) and keeps them in memory (the last :data:`KEPT_BYTES`) and, with
``cache_dir``, on disk as ``<cache_dir>/<model tag>/<media digest>-<frames digest>.npz`` (``frames``,
``features``): the questions about one video (VSI-Bench asks ~18) cost one image pass over its frames in
all, and a re-run or another run with the same cache folder costs none. Each question costs one text
pass (CLIP) or one text-encoder pass per frame (BLIP).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from spatialbench.media.errors import MediaError
from spatialbench.media.scorer_models import BATCH, Cosine, Matching, load_scorer

#: the pixels of frames given by their numbers in the media, in the order given
FrameLoader = Callable[[NDArray[np.int64]], Sequence[NDArray[np.uint8]]]
#: relevance of the media's frames with these numbers (their pixels from the loader) to the question
FrameScores = Callable[[NDArray[np.int64], FrameLoader], NDArray[np.float64]]
#: feature memory kept (least recently used out; the runner asks about one video after another, and the
#: disk cache holds the rest): a few videos of BLIP tokens, hundreds of CLIP vectors
KEPT_BYTES = 512 * 2**20
Key = tuple[str, str]  # media digest, candidate-frames digest


class ImageTextScorer:
    """Relevance of frames to a question from an image–text model, image features cached.

    Args:
        model: a local checkpoint folder or a Hugging Face model name (``openai/clip-vit-base-patch32``,
            ``Salesforce/blip-itm-large-coco``).
        cache_dir: folder of the on-disk feature cache (None: memory only).
        device: torch device (None: ``cuda`` when available, else ``cpu``).

    Attributes:
        image_passes: image forward passes run so far (one per :data:`BATCH` frames without features).
    """

    def __init__(self, model: str, cache_dir: Path | None = None, device: str | None = None) -> None:
        self.model, self.cache_dir, self.device = model, cache_dir, device
        self.image_passes = 0
        self._loaded: Cosine | Matching | MediaError | None = None  # or why it did not load
        self._features: OrderedDict[Key, NDArray[np.floating]] = OrderedDict()
        self._lock = threading.RLock()  # one model: frames and questions of concurrent items take turns

    def scores(self, media: str, digest: str, query: str) -> FrameScores:
        """Return the scoring function for ``query`` over the frames of ``media`` (content ``digest``).

        The function raises MediaError (naming the media and the model) when the model cannot be loaded
        or fails on the frames.
        """

        def score(frames: NDArray[np.int64], load: FrameLoader) -> NDArray[np.float64]:
            with self._lock:
                try:
                    return self._scorer(media).relevance(
                        self.image_features(media, digest, frames, load), query
                    )
                except MediaError:  # a RuntimeError too: the model did not load, said once
                    raise
                except (RuntimeError, ValueError) as exc:  # torch's errors, a processor refusing an input
                    raise MediaError(media, f"the AKS scorer {self.model} failed ({exc})") from exc

        return score

    def image_features(
        self, media: str, digest: str, frames: NDArray[np.int64], load: FrameLoader
    ) -> NDArray[np.floating]:
        """Return the features of ``frames`` of ``media`` (first axis: the frames), from the cache if there.

        Raises:
            MediaError: the model cannot be loaded (the message names the model and the media).
        """
        key = (digest, hashlib.sha256(np.asarray(frames, np.int64).tobytes()).hexdigest()[:16])
        with self._lock:
            if key in self._features:
                self._features.move_to_end(key)
                return self._features[key]
            features = self._read(key) if self._on_disk(key) else self._compute(media, key, frames, load)
            self._features[key] = features
            while sum(f.nbytes for f in self._features.values()) > KEPT_BYTES and len(self._features) > 1:
                self._features.popitem(last=False)
            return features

    def _compute(
        self, media: str, key: Key, frames: NDArray[np.int64], load: FrameLoader
    ) -> NDArray[np.floating]:
        scorer = self._scorer(media)
        batches: list[NDArray[np.floating]] = []
        for start in range(0, len(frames), BATCH):
            batches.append(scorer.images(load(frames[start : start + BATCH])))
            self.image_passes += 1
        features: NDArray[np.floating] = np.concatenate(batches)
        self._write(key, frames, features)
        return features

    def load(self) -> None:
        """Load the model now (a run loads it before its first request), not on the first frames scored.

        Raises:
            MediaError: the model cannot be loaded (``reason`` names the model and why).
        """
        self._scorer(self.model)

    def _scorer(self, media: str) -> Cosine | Matching:
        """Return the loaded model, loading it on first use (a failure is kept: tried once)."""
        if self._loaded is None:
            try:
                self._loaded = load_scorer(self.model, self.device, media)
            except MediaError as exc:
                self._loaded = exc
        if isinstance(self._loaded, MediaError):
            raise self._loaded
        return self._loaded

    def _path(self, key: Key) -> Path | None:
        if self.cache_dir is None:
            return None
        tag = hashlib.sha256(self.model.encode()).hexdigest()[:16]
        return self.cache_dir / tag / f"{key[0][:32]}-{key[1]}.npz"

    def _on_disk(self, key: Key) -> bool:
        path = self._path(key)
        return path is not None and path.is_file()

    def _read(self, key: Key) -> NDArray[np.floating]:
        with np.load(self._path(key)) as archive:  # type: ignore[arg-type]
            return np.asarray(archive["features"])

    def _write(self, key: Key, frames: NDArray[np.int64], features: NDArray[np.floating]) -> None:
        """Write the features atomically (a crashed run leaves no half file another run would read)."""
        path = self._path(key)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")
        with open(partial, "wb") as handle:
            np.savez(handle, frames=frames, features=features)
        os.replace(partial, path)
