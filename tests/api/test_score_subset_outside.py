"""``score --subset``: predictions for items outside the subset are expected, not "match no item"."""

from __future__ import annotations

import json
from pathlib import Path

from spatialbench.api.scoring import score
from support.image_tables import png


def _mindcube(root: Path) -> Path:
    """data/raw/MindCube.jsonl (6 questions) and MindCube_tinybench.jsonl (the first 4 of them)."""
    (root / "data" / "raw").mkdir(parents=True)
    (root / "data" / "other_all_image").mkdir()
    rows = []
    for k, setting in enumerate(["rotation", "among", "around", "among", "around", "rotation"]):
        image = f"other_all_image/{k}.png"
        (root / "data" / image).write_bytes(png(k))
        question = f"Q{k}: what is behind you? A. Above B. Under"
        rows.append({"id": f"{setting}_group{k}_q{k}", "question": question,
                     "images": [image], "gt_answer": "AB"[k % 2], "category": [setting], "type": "self"})
    for name, part in (("MindCube.jsonl", rows), ("MindCube_tinybench.jsonl", rows[:4])):
        (root / "data" / "raw" / name).write_text("".join(json.dumps(r) + "\n" for r in part))
    return root


def test_predictions_outside_the_subset_are_one_counted_line(tmp_path: Path) -> None:
    data = _mindcube(tmp_path / "mc")
    ids = [f"{s}_group{k}_q{k}" for k, s in enumerate(["rotation", "among", "around", "among", "around",
                                                        "rotation"])]
    predictions = tmp_path / "p.jsonl"
    lines = [{"id": i, "response": "AB"[k % 2]} for k, i in enumerate(ids)]
    lines.append({"id": "nowhere", "response": "A"})
    predictions.write_text("".join(json.dumps(r) + "\n" for r in lines))
    notes: list[str] = []
    outcome = score("mindcube", data, predictions, subset="tiny", notify=notes.append)
    assert [i.id for i in outcome.items] == ids[:4] and outcome.result.table.average == 100.0
    # the 2 full-set questions outside MindCube-Tiny: counted, not called unknown; "nowhere" still is
    assert notes == ["2 prediction id(s) are for items outside subset tiny (not scored)",
                     "1 prediction id(s) match no item: nowhere"]
    assert outcome.result.unmatched_predictions == ["nowhere"]
