"""Row errors of the MindCube, ViewSpatial-Bench, EmbSpatial-Bench and MMSI-Bench loaders (issue 24).

Each names the file, the line / row / entry, the field the file really has (a TSV's ``answer``, not the
release's ``gt_answer``) and what is wrong; never a Python exception's text as the field
(``field "'choices'"``), nor ``sample ''`` for a row without an id.
"""

from __future__ import annotations

import json
from pathlib import Path

from spatialbench.benchmarks import get_benchmark
from support.image_tables import b64, png, tsv_image, write_tsv

IMAGE = tsv_image([png(1)])
QUESTION = "Question? A. Above B. Under"
CAMERA = "Camera perspective - Relative Direction"


def _errors(benchmark: str, path: Path, **options: str) -> list[str]:
    loaded = get_benchmark(benchmark).load_items(path, **options)
    return [str(e).replace(str(path), "FILE") for e in loaded.errors]


def _items(benchmark: str, path: Path, **options: str) -> int:
    return len(get_benchmark(benchmark).load_items(path, **options))


def test_mindcube_release_lines(tmp_path: Path) -> None:
    (tmp_path / "p.png").write_bytes(png(1))
    lines = [
        {"id": "among_1", "question": QUESTION, "gt_answer": "A"},
        {"id": "among_2", "question": QUESTION, "images": 5, "gt_answer": "A"},
        [1],
        {"question": QUESTION, "images": ["p.png"], "gt_answer": "A"},
        {"id": "among_3", "images": ["p.png"], "gt_answer": "A"},
        {"id": "among_4", "question": QUESTION, "images": ["p.png"], "gt_answer": "Z"},
    ]
    path = tmp_path / "MindCube_tinybench.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines))
    assert _errors("mindcube", path, subset="tiny") == [
        "FILE:1: field 'images': sample 'among_1': missing: it must be a list of image paths",
        "FILE:2: field 'images': sample 'among_2': a JSON number: it must be a list of image paths",
        "FILE:3: a JSON list, not a question object",
        "FILE:4: field 'id': missing",
        "FILE:5: field 'question': sample 'among_3': missing",
        "FILE:6: field 'gt_answer': sample 'among_4': 'Z' is not one of the question's options (A, B)",
    ]


def test_mindcube_tsv_rows_name_the_tsv_columns(tmp_path: Path) -> None:
    rows = [
        {"index": 0, "image": IMAGE, "question": QUESTION, "answer": "Z", "category": "among"},
        {"index": "", "image": IMAGE, "question": QUESTION, "answer": "Z", "category": "among"},
        {"index": 2, "image": IMAGE, "question": "", "answer": "A", "category": "among"},
        {"index": 3, "image": "", "question": QUESTION, "answer": "A", "category": "among"},
        {"index": 4, "image": IMAGE, "question": "Which one?", "answer": "A", "category": "among"},
    ]
    path = write_tsv(rows, tmp_path / "MindCubeBench_tiny_raw_qa.tsv")
    assert _errors("mindcube", path, subset="tiny") == [
        "FILE:2: field 'answer': sample '0': 'Z' is not one of the question's options (A, B)",
        "FILE:3: field 'answer': 'Z' is not one of the question's options (A, B)",
        "FILE:4: field 'question': sample '2': empty",
        # the empty cell used to take the image of the row whose index is empty (line 3)
        "FILE:5: field 'image': sample '3': no image and no image_path",
        "FILE:6: field 'question': sample '4': no lettered options (A. ... B. ...) written in it",
    ]


def test_viewspatial_json_entries(tmp_path: Path) -> None:
    (tmp_path / "p.png").write_bytes(png(1))
    choices = "A. left\nB. right"
    entries = [
        {"question_type": CAMERA, "image_path": ["p.png"], "question": "q", "answer": "A. left"},
        {"question_type": CAMERA, "image_path": "p.png", "question": "q", "answer": "A. left",
         "choices": choices},
        "x",
        {"image_path": ["p.png"], "question": "q", "answer": "A. left", "choices": choices},
        {"question_type": CAMERA, "image_path": [], "question": "q", "answer": "A. left", "choices": choices},
    ]
    path = tmp_path / "ViewSpatial-Bench.json"
    path.write_text(json.dumps(entries))
    assert _items("viewspatial", path) == 0  # entry 2 used to load with one image per character of "p.png"
    assert _errors("viewspatial", path) == [
        "FILE: entry 1: field 'choices': sample '0': missing",
        "FILE: entry 2: field 'image_path': sample '1': a JSON string: it must be a list of image paths",
        "FILE: entry 3: sample '2': a JSON string, not a question object",
        "FILE: entry 4: field 'question_type': sample '3': missing",
        "FILE: entry 5: field 'image_path': sample '4': no image",
    ]


def test_viewspatial_tsv_rows(tmp_path: Path) -> None:
    rows = [
        {"index": 0, "image": IMAGE, "question": "q", "A": "l", "B": "r", "answer": "E", "category": CAMERA},
        {"index": 1, "image": "", "question": "q", "A": "l", "B": "r", "answer": "A", "category": CAMERA},
        {"index": 2, "image": IMAGE, "question": "q", "A": "l", "B": "r", "answer": "A", "category": ""},
        {"index": "", "image": IMAGE, "question": "q", "A": "", "B": "", "answer": "A", "category": CAMERA},
    ]
    path = write_tsv(rows, tmp_path / "ViewSpatialBench.tsv")
    assert _errors("viewspatial", path) == [
        "FILE:2: field 'answer': sample '0': 'E' is not one of the options",
        "FILE:3: field 'image': sample '1': no image and no image_path",
        "FILE:4: field 'category': sample '2': empty",  # it used to load with question type ""
        "FILE:5: field 'A': 0 option(s); a question has two or more",
    ]


def test_embspatial_entries_and_rows(tmp_path: Path) -> None:
    image = b64(png(1))
    entries = [
        {"data_source": "mp3d", "question": "q", "image": image, "answer_options": ["a"], "answer": 0},
        {"data_source": "mp3d", "question_id": "x1", "question": "q", "image": image,
         "answer_options": ["a", "b"], "answer": 5},
        "x",  # used to stop the whole load with AttributeError
        {"question_id": "x2", "question": "q", "image": image, "answer_options": ["a", "b"], "answer": 0},
    ]
    path = tmp_path / "embspatial_bench.json"
    path.write_text(json.dumps(entries))
    assert _errors("embspatial", path) == [
        "FILE: entry 1: field 'answer_options': 1 option(s); a question has two or more",
        "FILE: entry 2: field 'answer': sample 'x1': 5 is not one of the options",
        "FILE: entry 3: a JSON string, not a question object",
        "FILE: entry 4: field 'data_source': sample 'x2': missing",
    ]
    rows = [
        {"index": 0, "image": IMAGE, "question": "q", "options": '["a"]', "answer": "A",
         "data_source": "mp3d"},
        {"index": "", "image": IMAGE, "question": "q", "options": "[]", "answer": "A", "data_source": "mp3d"},
    ]
    tsv = write_tsv(rows, tmp_path / "EmbSpatialBench.tsv")
    assert _errors("embspatial", tsv) == [
        "FILE:2: field 'options': sample '0': 1 option(s); a question has two or more",
        "FILE:3: field 'options': 0 option(s); a question has two or more",
    ]


def test_mmsi_tsv_rows_name_the_tsv_columns(tmp_path: Path) -> None:
    rows = [
        {"index": 0, "image": IMAGE, "question": "q", "answer": "A", "category": ""},
        {"index": 1, "image": "[]", "question": "q", "answer": "A", "category": "MSR"},
        {"index": "", "image": IMAGE, "question": "", "answer": "A", "category": "MSR"},
        {"index": 3, "image": IMAGE, "question": "q", "answer": "E", "category": "MSR"},
    ]
    path = write_tsv(rows, tmp_path / "MMSI_Bench.tsv")
    assert _errors("mmsi-bench", path) == [
        "FILE:2: field 'category': sample '0': missing or empty",
        "FILE:3: field 'image': sample '1': no image",
        "FILE:4: field 'question': missing or empty",
        "FILE:5: field 'answer': sample '3': 'E' is not one of A-D",
    ]
