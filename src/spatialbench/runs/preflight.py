"""Set-up checks on a run's media, before anything is sent: a problem every item shares is one error.

- Missing media (:func:`check_media_present`): every file an item points at (the benchmark's
  :class:`~spatialbench.benchmarks.spec.MediaLayout`) must exist under the data folder; otherwise
  the run stops with exit 2 naming the first missing files and the layout the benchmark expects, instead
  of failing each item and printing a table of zeros.
- Media that leads out of the data folder through a symbolic link, or an empty (0-byte) file
  (:func:`check_media_usable`): exit 2 naming the files, like missing media.
- A rotated video (:func:`check_rotation`): a display matrix turning the frames (phones record upright
  video as landscape frames plus a 90-degree matrix). Frames are sent as stored, so the model would see
  them turned; every video is checked once (its first frame decoded) and the run refused naming the
  files, instead of each item failing mid-run.
- ``consecutive:N@START`` past the end of every video (:func:`check_consecutive`): no item could get a
  frame. A strategy that fits some videos leaves the others to per-item errors.
- An image limit below the frames sent (:func:`check_image_limit`): with ``image_overflow=error`` the
  first request is built (its frames decoded into the run's cache) and refused when it holds more
  images than the back end takes, since every request like it would be refused too.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from spatialbench.benchmarks.spec import MediaLayout
from spatialbench.media.cache import resolve_path
from spatialbench.media.errors import MediaError
from spatialbench.media.sampling import FrameStrategy, within_segment
from spatialbench.media.video import display_rotation, probe_timestamps
from spatialbench.models.api import ApiBackend
from spatialbench.models.base import Backend
from spatialbench.models.images import ImageOverflow
from spatialbench.records.item import Item, MediaKind, MediaRef
from spatialbench.records.messages import Request
from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.config import ModelConfig

SHOWN = 5


class MissingMediaError(RunSetupError):
    """Media files the items point at do not exist."""


def missing_files(items: Sequence[Item], root: Path, layout: MediaLayout) -> list[str]:
    """Return every media file of ``items`` (``layout.files``) that is not a file, sorted, each once."""
    return [path for path in _files_of(items, root, layout) if not os.path.isfile(path)]


def check_media_present(items: Sequence[Item], root: Path, layout: MediaLayout) -> None:
    """Refuse the run when a media file of ``items`` (``layout.files``) is missing under ``root``.

    Raises:
        MissingMediaError: the message counts the missing files, names the first ``SHOWN`` and the
            expected layout (``layout.expected``: ``<data>/<dataset>/<scene_name>.mp4`` for VSI-Bench).
    """
    missing = missing_files(items, root, layout)
    if not missing:
        return
    users = _users(items, root, set(missing), layout)
    raise MissingMediaError(
        f"{len(missing)} media file(s) or frame folder(s) missing under {root} "
        f"({users} of {len(items)} items use them): {', '.join(missing[:SHOWN])}{_more(missing)}; "
        f"expected layout {layout.expected}; nothing was sent"
    )


def _users(items: Sequence[Item], root: Path, paths: set[str], layout: MediaLayout) -> int:
    return sum(any(p in paths for p in layout.files(it, root)) for it in items)


def _files_of(items: Sequence[Item], root: Path, layout: MediaLayout) -> list[str]:
    return sorted({path for item in items for path in layout.files(item, root)})


def check_media_usable(items: Sequence[Item], root: Path, layout: MediaLayout) -> None:
    """Refuse media that resolves (symlinks followed) outside ``root``, or an empty (0-byte) file.

    Run after :func:`check_media_present` (issue 10, section 5: a run never reads a file outside its data
    folder). A file with content that fails to decode is left to its items' errors (it is decoded once).

    Raises:
        RunSetupError: the message counts the files and the items that use them and names the first
            ``SHOWN`` (a link with its target; an empty file with the reason).
    """
    files = _files_of(items, root, layout)
    inside = os.path.realpath(root)
    outside = [(p, os.path.realpath(p)) for p in files
               if os.path.commonpath([inside, os.path.realpath(p)]) != inside]
    if outside:
        shown = ", ".join(f"{path} -> {target}" for path, target in outside[:SHOWN])
        users = _users(items, root, {p for p, _ in outside}, layout)
        raise RunSetupError(
            f"{len(outside)} media file(s) lead outside the data folder {inside} through a symbolic link "
            f"({users} of {len(items)} items use them): {shown}"
            f"{_more(outside)}; nothing was sent"
        )
    unusable = [e for e in (_empty(path) for path in files) if e is not None]
    if unusable:
        users = _users(items, root, {e.path for e in unusable}, layout)
        shown = "; ".join(str(e) for e in unusable[:SHOWN])
        raise RunSetupError(
            f"{len(unusable)} media file(s) cannot be used under {root} ({users} of {len(items)} items use "
            f"them): {shown}{_more(unusable)}; nothing was sent"
        )


def _more(shown: Sequence[object]) -> str:
    return f" and {len(shown) - SHOWN} more" if len(shown) > SHOWN else ""


def _empty(path: str) -> MediaError | None:
    return MediaError(path, "empty file (0 bytes)") if os.path.getsize(path) == 0 else None


def check_media(items: Sequence[Item], root: Path, layout: MediaLayout, strategy: FrameStrategy) -> None:
    """Run the checks above in order: present, usable, rotation, consecutive.

    ``layout``: the benchmark's media layout (``BenchmarkSpec.media``).
    """
    check_media_present(items, root, layout)
    check_media_usable(items, root, layout)
    check_rotation(items, root)
    check_consecutive(items, root, strategy)


def check_rotation(items: Sequence[Item], root: Path) -> None:
    """Refuse videos of ``items`` whose display matrix rotates them; an unreadable one is left to its items.

    Raises:
        RunSetupError: the message counts the rotated videos and the items that use them, names the first
            ``SHOWN`` with their angle and how to re-encode them upright.
    """
    videos = {resolve_path(ref, root) for item in items for ref in item.media if ref.kind is MediaKind.VIDEO}
    rotated = [(path, angle) for path in sorted(videos) if (angle := _rotation(path))]
    if not rotated:
        return
    turned = {path for path, _ in rotated}
    users = sum(any(resolve_path(r, root) in turned for r in item.media) for item in items)
    shown = ", ".join(f"{path} ({angle:g} degrees)" for path, angle in rotated[:SHOWN])
    raise RunSetupError(
        f"{len(rotated)} video(s) are rotated by their display matrix ({users} of {len(items)} items use "
        f"them): {shown}{_more(rotated)}; the frames would be sent turned: re-encode them upright (ffmpeg "
        "-i IN.mp4 OUT.mp4 applies the rotation); nothing was sent"
    )


def _rotation(path: str) -> float:
    try:
        return display_rotation(path)
    except MediaError:  # corrupt: its items fail with the decoder's reason
        return 0.0


def _timestamps(ref: MediaRef, root: Path) -> np.ndarray:
    if ref.kind is MediaKind.FRAMES:
        return np.asarray(ref.timestamps or range(len(ref.frames)), dtype=np.float64)
    return probe_timestamps(resolve_path(ref, root))


def check_consecutive(items: Sequence[Item], root: Path, strategy: FrameStrategy) -> None:
    """Refuse a ``consecutive`` strategy that selects no frame of any video (or frame list) of ``items``.

    Stops at the first media it fits; an unreadable video is left to its items' errors.

    Raises:
        RunSetupError: the start lies past the end of every media; the message gives the longest.
    """
    if strategy.kind != "consecutive":
        return
    longest = 0
    refs = {ref for item in items for ref in item.media if ref.kind is not MediaKind.IMAGE}
    for ref in sorted(refs, key=lambda r: r.path):
        try:
            timestamps = _timestamps(ref, root)
        except MediaError:
            continue
        inside = within_segment(timestamps, ref.start, ref.end)
        if len(strategy.select(timestamps[inside])):
            return
        longest = max(longest, len(inside))
    if refs:
        raise RunSetupError(
            f"--frames {strategy.name} starts past the end of every video ({len(refs)} media; the longest "
            f"has {longest} frames): choose an earlier start; nothing was sent"
        )


def check_image_limit(request: Request, max_images: int | None, overflow: ImageOverflow) -> None:
    """Refuse a run whose first request holds more images than the back end accepts (policy ``error``).

    Raises:
        RunSetupError: the message gives both numbers and the options that fix it.
    """
    if max_images is None or overflow is not ImageOverflow.ERROR or request.n_images <= max_images:
        return
    raise RunSetupError(
        f"the requests hold {request.n_images} images but --max-images is {max_images}: send fewer frames "
        "(--frames), raise --max-images or use --image-overflow subsample; nothing was sent"
    )


def image_limit(backend: Backend, model: ModelConfig) -> tuple[int | None, ImageOverflow]:
    """Return the image limit and overflow policy in force.

    An API back end's own settings (its provider's default limit applied), else the run's model settings.
    """
    if isinstance(backend, ApiBackend):
        return backend.settings.max_images, backend.settings.image_overflow
    return model.max_images, model.image_overflow
