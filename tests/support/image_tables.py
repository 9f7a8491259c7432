"""Small image-benchmark files in their official layouts: rendered PNGs, Parquet with bytes, VLMEvalKit TSV.

Images are drawn here (a coloured square on a grey field, one per question and view), so fixtures hold real
encoded images without any download.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from PIL import Image


def png(seed: int, size: int = 24) -> bytes:
    """A size×size PNG: grey field, a square whose colour and place follow ``seed``."""
    pixels = np.full((size, size, 3), 128, np.uint8)
    rng = np.random.default_rng(seed)
    x, y = rng.integers(0, size // 2, 2)
    pixels[y : y + size // 3, x : x + size // 3] = rng.integers(0, 256, 3)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    return buffer.getvalue()


def write_parquet(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    """Write rows (image columns already bytes or lists of bytes) as one Parquet file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(list(rows)).to_parquet(path, index=False)
    return path


def b64(data: bytes) -> str:
    """Base64 text of encoded image bytes, as VLMEvalKit's ``encode_image_to_base64`` stores it."""
    return base64.b64encode(data).decode("ascii")


def tsv_image(images: Sequence[bytes]) -> str:
    """The ``image`` cell of a VLMEvalKit TSV row: one base64 image, or a JSON list for several."""
    return b64(images[0]) if len(images) == 1 else json.dumps([b64(i) for i in images])


def write_tsv(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    """Write rows as a VLMEvalKit TSV (tab-separated, header, pandas' default quoting)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(list(rows)).to_csv(path, sep="\t", index=False)
    return path
