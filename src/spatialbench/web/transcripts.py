"""The transcript of an item on its UI page, rendered by :mod:`spatialbench.views.transcript`.

Built on :func:`spatialbench.runs.transcript.transcript` (read through the run folder). A frame file is
shown as itself; a video frame as the video at that time (``#t=SECONDS`` media fragment, no decoding on
the server), both through ``/media``.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from markupsafe import Markup

from spatialbench.runs.transcript import SentImage, data_relative, transcript
from spatialbench.views.transcript import Thumb, transcript_html
from spatialbench.web.runs import ServedRun


def source_url(root: Path, source: str) -> str | None:
    """Return the ``/media`` URL of a stored media path (None when outside the data folder ``root``)."""
    path = data_relative(root, source)
    return None if path is None else "/media/" + quote(path.as_posix())


def thumbnail(root: Path, image: SentImage) -> Thumb:
    """Return where the page shows a sent image: the file, or the video at its time (``#t=``)."""
    url = source_url(root, image.source)
    inside = data_relative(root, image.source)
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
