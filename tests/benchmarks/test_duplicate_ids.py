"""Every loader refuses a repeated or empty id (one shared check: ``benchmarks.shared.ids``).

Predictions are matched to questions by id: two EmbSpatial questions ``emb3`` took one answer between them
and two with id ``""`` another, which swapped answers (Avg. 50.0 where the model had 66.7). Each TSV built
by :mod:`support.kit_tsvs` gets row 2's id repeated and row 3's emptied; the first row with an id is kept.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from spatialbench.benchmarks import get_benchmark
from support.image_tables import b64, png, write_parquet
from support.kit_tsvs import TSVS

ID_COLUMN = {"3dsrbench": "qid"}


@pytest.mark.parametrize("name", sorted(TSVS))
def test_a_tsv_with_a_repeated_and_an_empty_id(name: str, tmp_path: Path) -> None:
    table = TSVS[name](tmp_path / "kit")
    frame = pd.read_csv(table, sep="\t", dtype=str, keep_default_na=False)
    column = ID_COLUMN.get(name, "index")
    first = frame.loc[0, column]
    frame.loc[1, column], frame.loc[2, column] = first, ""
    frame.to_csv(table, sep="\t", index=False)
    loaded = get_benchmark(name).load_items(table)
    problems = [str(e) for e in loaded.errors]
    assert f"{table}:3: field {column!r}: duplicate id {_id(name, first)!r} (first at {table}:2)" in problems
    empty = "missing: the flip and circular settings" if name == "3dsrbench" else "empty id: every question"
    assert [p for p in problems if p.startswith(f"{table}:4: field {column!r}:") and empty in p]
    assert len({i.id for i in loaded}) == len(loaded)


def _id(name: str, written: str) -> str:
    return f"image:{written}" if name == "site" else written


def test_embspatial_release_json_with_repeated_and_empty_question_ids(tmp_path: Path) -> None:
    entries = [
        {"data_source": "mp3d", "scene_id": "s", "question_id": qid, "question": f"Q{k}?", "relation": "left",
         "image": b64(png(k)), "answer_options": ["chair", "lamp"], "answer": k % 2, "objects": []}
        for k, qid in enumerate(["", "emb1", "", "emb3", "emb3"])
    ]
    data = tmp_path / "embspatial_bench.json"
    data.write_text(json.dumps(entries), encoding="utf-8")
    loaded = get_benchmark("embspatial").load_items(data)
    assert [i.id for i in loaded] == ["emb1", "emb3"]
    assert [str(e) for e in loaded.errors] == [
        f"{data}: entry 1: field 'question_id': empty id: every question needs one (answers match by id)",
        f"{data}: entry 3: field 'question_id': empty id: every question needs one (answers match by id)",
        f"{data}: entry 5: field 'question_id': duplicate id 'emb3' (first at {data}: entry 4)",
    ]


def test_mindcube_jsonl_with_a_repeated_id(tmp_path: Path) -> None:
    from benchmarks.test_mindcube import write_release

    table = next(write_release(tmp_path / "mc").rglob("*.jsonl"))
    lines = table.read_text(encoding="utf-8").splitlines()
    second = json.loads(lines[1])
    second["id"] = json.loads(lines[0])["id"]
    table.write_text("\n".join([lines[0], json.dumps(second), *lines[2:]]) + "\n", encoding="utf-8")
    loaded = get_benchmark("mindcube").load_items(tmp_path / "mc", subset="tiny")
    assert [str(e) for e in loaded.errors] == [
        f"{table}:2: field 'id': duplicate id {second['id']!r} (first at {table}:1)"
    ]
    assert len(loaded) == len(lines) - 1


def test_blink_release_with_a_repeated_idx(tmp_path: Path) -> None:
    rows = [
        {"idx": "val_Counting_1", "question": f"Q{k}", "sub_task": "Counting", "choices": ["1", "2"],
         "answer": "(A)", "prompt": f"Q{k}\n(A) 1\n(B) 2", "explanation": "",
         "image_1": {"bytes": png(k), "path": f"{k}.png"}, "image_2": None, "image_3": None, "image_4": None}
        for k in range(2)
    ]
    table = write_parquet(rows, tmp_path / "Counting" / "val-00000-of-00001.parquet")
    loaded = get_benchmark("blink").load_items(tmp_path)
    assert len(loaded) == 1
    assert [str(e) for e in loaded.errors] == [
        f"{table}:2: field 'idx': duplicate id 'val_Counting_1' (first at {table}:1)"
    ]


@pytest.mark.parametrize("answer", [True, None, 1.5])
def test_embspatial_answer_that_is_no_index_letter_or_text(answer: object, tmp_path: Path) -> None:
    """A JSON boolean answer raised "invalid literal for int() with base 10: 'True'"."""
    entry = {"data_source": "mp3d", "scene_id": "s", "question_id": "emb0", "question": "Q?",
             "relation": "left", "image": b64(png(0)), "answer_options": ["chair", "lamp"], "answer": answer,
             "objects": []}
    data = tmp_path / "embspatial_bench.json"
    data.write_text(json.dumps([entry]), encoding="utf-8")
    loaded = get_benchmark("embspatial").load_items(data)
    assert not loaded and [str(e) for e in loaded.errors] == [
        f"{data}: entry 1: field 'answer': sample 'emb0': {answer!r} is not an option index, letter or text"
    ]
