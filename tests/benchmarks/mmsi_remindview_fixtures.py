"""Build the MMSI-Video-Bench and ReMindView-Bench fixture folders: the annotation files of
``fixtures/`` (official formats) plus tiny images created here.

Every MMSI frame is a solid 8x8 JPEG whose colour encodes (video number, frame number) and every image
file of a ReMindView frame set a solid PNG, so a test can tell which frames reached a request.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
from PIL import Image

FIXTURES = Path(__file__).parent / "fixtures"
MMSI_FIXTURE = FIXTURES / "mmsi_video"
REMINDVIEW_FIXTURE = FIXTURES / "remindview"


def frame_colour(video: int, frame: int) -> tuple[int, int, int]:
    """The colour of frame ``frame`` of video ``video`` (distinct for the fixture's sizes)."""
    return (40 * video + 20, 40 * frame + 20, 200)


def decode_colour(pixels: np.ndarray) -> tuple[int, int]:
    """(video, frame) from a frame's pixels (JPEG may shift a solid colour by a few levels)."""
    red, green = (int(round((float(pixels[..., c].mean()) - 20) / 40)) for c in (0, 1))
    return red, green


def _save(path: Path, colour: tuple[int, int, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.full((8, 8, 3), colour, dtype=np.uint8)).save(path)


def build_mmsi(target: Path, samples: list[dict] | None = None) -> Path:
    """Copy the MMSI fixture into ``target`` and create its frames and reference images.

    Args:
        samples: write these as ``mmsivideo.json`` instead of the fixture's (their files are made too).
    """
    shutil.copytree(MMSI_FIXTURE, target)
    if samples is None:
        samples = json.loads((target / "mmsivideo.json").read_text())
    else:
        (target / "mmsivideo.json").write_text(json.dumps(samples))
    for sample in samples:
        for v, frames in enumerate(sample["frames_list"]):
            for k, name in enumerate(frames):
                _save(target / "frames" / name, frame_colour(v, k))
        for r, name in enumerate(sample["ref_images"]):
            _save(target / "ref_images" / name, (250, 10 * r, 10))
    return target


def mmsi_samples() -> list[dict]:
    """The fixture's samples (a fresh copy)."""
    return json.loads((MMSI_FIXTURE / "mmsivideo.json").read_text())


def mmsi_responses() -> dict[str, str]:
    """The fixture's model responses by question id."""
    return json.loads((MMSI_FIXTURE / "responses.json").read_text())


def build_remindview(target: Path) -> Path:
    """Copy the ReMindView fixture into ``target`` and create the images of every frame set it names."""
    shutil.copytree(REMINDVIEW_FIXTURE, target)
    spec = json.loads((target / "frame_sets.json").read_text())
    for folder, names in spec.items():
        for k, name in enumerate(names):
            _save(target / folder / name, (30 * k, 60, 90))
    return target


def remindview_responses() -> dict[str, str]:
    """The fixture's model responses by item id (``<table stem>:<row>``)."""
    return json.loads((REMINDVIEW_FIXTURE / "responses.json").read_text())
