"""One VLMEvalKit/EASI TSV per TSV-reading benchmark, under its official file name (for cross-reading tests).

Each is built from that benchmark's own test fixture (its cases, rendered PNGs as base64), so each is
a file its own benchmark loads without a row error.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from benchmarks import (
    test_blink,
    test_cvbench,
    test_embspatial,
    test_mindcube,
    test_mmsi_bench,
    test_site,
    test_threedsr,
    test_viewspatial,
)
from support.image_tables import png, tsv_image, write_tsv


def _blink(folder: Path) -> Path:
    return write_tsv(test_blink.kit_rows(), folder / "BLINK.tsv")


def _cvbench(folder: Path) -> Path:
    rows = [
        {
            "index": k,
            "image": tsv_image([png(k)]),
            "question": f"Question {k}?",
            "A": "one",
            "B": "two",
            "C": "three",
            "answer": c[3][1],
            "category": c[1],
            "source": c[2],
        }
        for k, c in enumerate(test_cvbench.CASES)
    ]
    return write_tsv(rows, folder / "CV-Bench.tsv")


def _embspatial(folder: Path) -> Path:
    rows = [
        {
            "index": k,
            "image": e["image"],
            "question": e["question"],
            "options": json.dumps(e["answer_options"]),
            "answer": "ABCD"[e["answer"]],
            "data_source": e["data_source"],
        }
        for k, e in enumerate(test_embspatial._entries())
    ]
    return write_tsv(rows, folder / "EmbSpatialBench.tsv")


def _site(folder: Path) -> Path:
    rows = [
        {
            "index": k,
            "image": tsv_image([png(10 * k)]),
            "question": test_site._question(k),
            "options": json.dumps(o),
            "answer": a,
            "category": c,
        }
        for k, (part, c, o, a, _) in enumerate(test_site.CASES)
        if part == "image"
    ]
    return write_tsv(rows, folder / "SiteBenchImage.tsv")


def _viewspatial(folder: Path) -> Path:
    options = dict(zip("ABCD", ("left", "front", "back-left", "back"), strict=True))
    rows = [
        {
            "index": k,
            "image": tsv_image([png(k)]),
            "question": f"Where is thing {k}?",
            **options,
            "answer": answer[0],
            "category": kind,
        }
        for k, (kind, answer, _) in enumerate(test_viewspatial.CASES)
    ]
    return write_tsv(rows, folder / "ViewSpatialBench.tsv")


TSVS: dict[str, Callable[[Path], Path]] = {
    "mmsi-bench": lambda f: test_mmsi_bench._write_both(f)[1],
    "mindcube": test_mindcube.write_tsv_release,
    "viewspatial": _viewspatial,
    "site": _site,
    "blink": _blink,
    "3dsrbench": lambda f: write_tsv(test_threedsr._kit_rows(), f / "3dsrbench_v1_vlmevalkit_circular.tsv"),
    "embspatial": _embspatial,
    "cvbench": _cvbench,
}
"""Benchmark name → a function writing its TSV into a folder and returning the file."""
