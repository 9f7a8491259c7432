"""The next video is made ready while every request about the one before it is still unanswered (issue 25).

Ready means decoded and encoded for the wire: the first requests about a video used to encode its frames
themselves, and a synthetic video's visibility was read by each of them before sending, so at a change of
video nothing was in flight. Checked by order of events, not by timing: the server answers no request
until the second video's encodings exist; before the fix they were made only by its own requests, which
could not start while every slot was held by the first video's unanswered ones.
"""

from __future__ import annotations

import hashlib
import threading
import time
from pathlib import Path

import numpy as np

import spatialbench.models.images as images
from spatialbench.api import run
from spatialbench.media.cache import FrameCache
from spatialbench.media.sampling import parse_strategy
from spatialbench.records.item import MediaKind, MediaRef
from support.openai_server import OpenAIServer, ServerScript
from support.videos import encode_indexed_video
from support.vsi_data import answer_script, make_vsibench

WAIT_S = 10.0  # generous: only reached when the next video is never made ready


def _digests(root: Path, video: str) -> set[str]:
    frames = FrameCache(root).get(MediaRef(kind=MediaKind.VIDEO, path=video), parse_strategy("uniform:3"))
    return {hashlib.sha1(np.ascontiguousarray(p).data, usedforsecurity=False).hexdigest()
            for p in frames.pixels}


def test_the_next_video_is_encoded_before_any_request_about_the_first_is_answered(tmp_path: Path) -> None:
    data = tmp_path / "data"
    answers = make_vsibench(data, n_videos=2, per_video=6)
    encode_indexed_video(data / "arkitscenes" / "scene1.mp4", 12, 48, 48)  # frames unlike scene0's
    wanted = _digests(data, "arkitscenes/scene0.mp4") | _digests(data, "arkitscenes/scene1.mp4")
    assert len(wanted) == 6
    before = images.encode_counts()
    ready = threading.Event()
    waited: list[bool] = []
    answer = answer_script(answers)

    def encoded() -> bool:
        made = images.encode_counts() - before
        return wanted <= {key[0] for key in made}

    def hold_until_both_videos_are_encoded(text: str) -> str:
        deadline = time.monotonic() + WAIT_S
        while not encoded() and time.monotonic() < deadline:
            time.sleep(0.005)
        waited.append(encoded())
        if waited[-1]:
            ready.set()
        return answer(text)

    with OpenAIServer(ServerScript(answer=hold_until_both_videos_are_encoded)) as server:
        summary = run({
            "data": {"benchmark": "vsibench", "path": str(data)},
            "model": {"name": f"openai-compatible:{server.url}#m", "concurrency": 2},
            "media": {"frames": "uniform:3"},
            "out": str(tmp_path / "run"),
        }, progress=False)
    assert ready.is_set() and waited == [True] * 12  # no request needed an answer before both were ready
    assert summary.counts["ok"] == 12 and summary.score.table.average == 100.0
    assert sum(summary.decodes.values()) == 2
