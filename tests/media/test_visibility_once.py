"""Visibility of a synthetic video is read once however many requests ask for it at once (issue 25).

The demo's 2-scene run had nothing in flight for seconds: each of its first requests read the video's
``frames.npz`` (480 × 480 × 640 instance ids) in its own worker thread, since ``lru_cache`` does not
make concurrent callers wait for the one computing.
"""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from spatialbench.media import visibility


def _scene(root: Path) -> Path:
    masks = np.zeros((40, 120, 160), dtype=np.uint16)
    masks[:, :20, :20] = 1
    masks[7, 50:60, 50:60] = 2
    scene = root / "scenes" / "s0"
    scene.mkdir(parents=True)
    np.savez_compressed(scene / "frames.npz", instance=masks)
    table = [{"instance_id": 1, "category": "sofa"}, {"instance_id": 2, "category": "cup"}]
    (scene / "scene.json").write_text(json.dumps({"instances": table}))
    return root / "synthetic" / "s0.mp4"


def test_concurrent_callers_share_one_read(tmp_path: Path, monkeypatch) -> None:
    video = _scene(tmp_path)
    reads: list[str] = []
    inside = threading.Barrier(2, timeout=5)
    real_load = np.load

    def load(*args, **kwargs):  # type: ignore[no-untyped-def]
        reads.append(str(args[0]))
        try:  # a second caller reading at the same time meets the first one here
            inside.wait(timeout=0.5)
        except threading.BrokenBarrierError:
            pass
        return real_load(*args, **kwargs)

    visibility._load.cache_clear()
    monkeypatch.setattr(visibility.np, "load", load)
    with ThreadPoolExecutor(8) as pool:
        found = list(pool.map(lambda _: visibility.find_visibility(video), range(8)))
    assert len(reads) == 1
    assert all(f is found[0] for f in found)
    assert found[0] is not None and found[0].frames[7] == frozenset({1, 2})
    assert found[0].frames[0] == frozenset({1}) and found[0].categories == {1: "sofa", 2: "cup"}
