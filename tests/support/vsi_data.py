"""A small VSI-Bench-format data folder: real h264 videos plus test.jsonl, and a server answer script."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from support.videos import encode_indexed_video

_TAG = re.compile(r"\[q(\d+)\]")


def make_vsibench(
    root: Path, n_videos: int, per_video: int, n_frames: int = 12, seed: int = 0, shuffle: bool = True
) -> dict[str, str]:
    """Write ``root/arkitscenes/scene{v}.mp4`` and ``root/test.jsonl``; return question tag → correct answer.

    Every question carries a unique tag ``[qK]`` so a scripted server can answer it; even K are counting
    (numerical) questions, odd K relative-distance multiple choice.
    """
    (root / "arkitscenes").mkdir(parents=True, exist_ok=True)
    for v in range(n_videos):
        encode_indexed_video(root / "arkitscenes" / f"scene{v}.mp4", n_frames, 64, 64)
    rng = np.random.default_rng(seed)
    records, answers = [], {}
    for k in range(n_videos * per_video):
        scene = f"scene{k // per_video}"
        if k % 2 == 0:
            truth = str(int(rng.integers(1, 9)))
            record = {
                "question_type": "object_counting",
                "question": f"[q{k}] How many chair(s) are there?",
                "options": None,
                "ground_truth": truth,
            }
        else:
            truth = "ABCD"[int(rng.integers(4))]
            record = {
                "question_type": "object_rel_distance",
                "question": f"[q{k}] Which is closest to the sofa?",
                "options": ["A. chair", "B. table", "C. lamp", "D. bed"],
                "ground_truth": truth,
            }
        records.append({"id": k, "dataset": "arkitscenes", "scene_name": scene, **record})
        answers[f"q{k}"] = truth
    order = rng.permutation(len(records)) if shuffle else np.arange(len(records))
    (root / "test.jsonl").write_text("".join(json.dumps(records[i]) + "\n" for i in order))
    return answers


def answer_script(answers: dict[str, str]):  # type: ignore[no-untyped-def]
    """Server answer function: the correct answer for the question's tag, ``"?"`` when untagged."""

    def answer(text: str) -> str:
        match = _TAG.search(text)
        return answers[f"q{match.group(1)}"] if match else "?"

    return answer


def question_tag(text: str) -> str | None:
    """The ``qK`` tag in a request's text."""
    match = _TAG.search(text)
    return f"q{match.group(1)}" if match else None
