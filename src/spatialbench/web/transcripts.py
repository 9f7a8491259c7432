"""The transcript of an item on its UI page, rendered by :mod:`spatialbench.views.transcript`.

Built on :func:`spatialbench.runs.transcript.transcript` (read through the run folder). A frame file is
shown as itself; a video frame as the video at that time (``#t=SECONDS`` media fragment, no decoding on
the server), both through ``/media``.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from urllib.parse import quote

from markupsafe import Markup

from spatialbench.runs.transcript import SentImage, transcript
from spatialbench.views.transcript import Thumb, transcript_html
from spatialbench.web.runs import ServedRun


def served_path(root: Path, source: str) -> PurePosixPath | None:
    """Return a stored media path relative to the data folder ``root`` (None when it is not under it).

    A run given a relative ``--data`` stores its sources as given (``demo-out/benchmark/synthetic/x.mp4``,
    relative to where it ran): the path is the longest tail of the source that is a file or folder of
    ``root`` (``synthetic/x.mp4``). An absolute source is taken relative to ``root``.
    """
    path = Path(source)
    if path.is_absolute():
        try:
            return PurePosixPath(path.resolve().relative_to(root.resolve()).as_posix())
        except ValueError:
            return None
    parts = PurePosixPath(path.as_posix()).parts
    tails = [PurePosixPath(*parts[k:]) for k in range(len(parts))]
    return next((tail for tail in tails if (root / tail).exists()), None)


def source_url(root: Path, source: str) -> str | None:
    """Return the ``/media`` URL of a stored media path (None when outside the data folder ``root``)."""
    path = served_path(root, source)
    return None if path is None else "/media/" + quote(path.as_posix())


def thumbnail(root: Path, image: SentImage) -> Thumb:
    """Return where the page shows a sent image: the file, or the video at its time (``#t=``)."""
    url = source_url(root, image.source)
    inside = served_path(root, image.source)
    # a frame folder recorded before its files were
    if not image.is_file and inside is not None and (root / inside).is_dir():
        return Thumb(None, False, image.label, image.time_s)
    if url is not None and not image.is_file and image.time_s is not None:
        url = f"{url}#t={image.time_s:.3f}"
    return Thumb(url, not image.is_file, image.label, image.time_s)


def transcript_view(root: Path, run: ServedRun, item_id: str) -> Markup | None:
    """Return the HTML of ``run``'s dialogue for the item (None when it stored nothing)."""
    found = transcript(run.folder, item_id)
    if found is None:
        return None
    return transcript_html(found, lambda image: thumbnail(root, image))
