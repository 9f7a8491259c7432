"""CV-Bench-layout rows (``test_2d.jsonl`` / ``test_3d.jsonl``) with the release's templates, built in code.

Used by the TsT-RF parity test: the official TsT CV-Bench feature code was run once on exactly these rows.
Objects have habits (how many there usually are, which side or depth they usually take) so that a
text-only forest finds something; multi-word objects exercise the official regular expressions.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

OBJECTS = ["chair", "person", "car", "lamp", "dining table", "potted plant", "bed", "tv"]
TYPICAL_COUNT = {name: 1 + i % 4 for i, name in enumerate(OBJECTS)}
N_PER_TASK = 60


def _count(rng: np.random.Generator, k: int) -> dict[str, object]:
    name = OBJECTS[int(rng.integers(len(OBJECTS)))]
    gold = TYPICAL_COUNT[name] if rng.random() < 0.6 else int(rng.integers(0, 7))
    n = int(rng.integers(4, 7))
    values = [gold, *[int(v) for v in rng.choice([v for v in range(8) if v != gold], n - 1, replace=False)]]
    rng.shuffle(values)
    return {
        "task": "Count",
        "question": f"How many {name}s are in the image?",
        "choices": [str(v) for v in values],
        "gold": values.index(gold),
        "source": ["ADE20K", "COCO"][k % 2],
    }


def _relation(rng: np.random.Generator, k: int) -> dict[str, object]:
    a, b = (str(x) for x in rng.choice(OBJECTS, 2, replace=False))
    choices = ["left", "right"] if k % 3 else ["above", "below"]
    gold = 0 if (OBJECTS.index(a) < OBJECTS.index(b)) == (rng.random() < 0.75) else 1
    question = (
        f"Considering the relative positions of the {a} (annotated by the red box) and the {b} "
        f"(annotated by the blue box) in the image provided, where is the {a} (annotated by the red "
        f"box) located with respect to the {b} (annotated by the blue box)?"
    )
    return {
        "task": "Relation",
        "question": question,
        "choices": choices,
        "gold": gold,
        "source": ["ADE20K", "COCO"][k % 2],
    }


def _closer(rng: np.random.Generator, task: str) -> dict[str, object]:
    names = [str(x) for x in rng.choice(OBJECTS, 3, replace=False)]
    a, b = names[0], names[1]
    near = a if (OBJECTS.index(a) % 2 == 0) == (rng.random() < 0.7) else b
    if task == "Depth":
        question = (
            f"Which object is closer to the camera taking this photo, the {a} (highlighted by a red "
            f"box) or the {b} (highlighted by a blue box)?"
        )
    else:
        question = (
            f"Which object is closer to the {names[2]} (highlighted by a red box), the {a} "
            f"(highlighted by a blue box) or the {b} (highlighted by a green box)?"
        )
    return {
        "task": task,
        "question": question,
        "choices": [a, b],
        "gold": [a, b].index(near),
        "source": "Omni3D",
    }


def _prompt(question: str, choices: list[str]) -> str:
    lines = [f"({chr(65 + i)}) {c}" for i, c in enumerate(choices)]
    return f"{question} Select from the following choices.\n" + "\n".join(lines)


def cvbench_rows(seed: int = 0) -> list[dict[str, object]]:
    """60 Count and 60 Relation rows (2D, idx 0-119), 60 Depth and 60 Distance rows (3D, idx 120-239)."""
    rng = np.random.default_rng(seed)
    drawn = [_count(rng, k) for k in range(N_PER_TASK)] + [_relation(rng, k) for k in range(N_PER_TASK)]
    drawn += [_closer(rng, "Depth") for _ in range(N_PER_TASK)] + [
        _closer(rng, "Distance") for _ in range(N_PER_TASK)
    ]
    rows = []
    for idx, row in enumerate(drawn):
        kind = "2D" if row["task"] in ("Count", "Relation") else "3D"
        choices = list(row["choices"])  # type: ignore[call-overload]
        rows.append(
            {
                "idx": idx,
                "type": kind,
                "task": row["task"],
                "question": row["question"],
                "choices": choices,
                "answer": f"({chr(65 + int(row['gold']))})",  # type: ignore[call-overload]
                "prompt": _prompt(str(row["question"]), choices),
                "filename": f"img/{kind}/{idx}.png",
                "source": row["source"],
            }
        )
    return rows


def write_cvbench_rows(folder: Path, seed: int = 0) -> Path:
    """Write the rows as the release's ``test_2d.jsonl`` and ``test_3d.jsonl``; return the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = cvbench_rows(seed)
    for kind in ("2D", "3D"):
        lines = [json.dumps(r) for r in rows if r["type"] == kind]
        (folder / f"test_{kind.lower()}.jsonl").write_text("\n".join(lines) + "\n")
    return folder
