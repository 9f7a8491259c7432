"""CV-Bench: Parquet (images as bytes), JSONL + img/ and TSV load alike; the combined accuracy of the card.

The dataset card's "Accuracy" code (``calculate_accuracy`` per source, then ``((ade + coco) / 2 + omni) / 2``)
is written again in ``_card_accuracy`` and applied to the same per-item results (Δ 0). The fixture makes
the question-weighted mean (3/7 = 42.9) differ from the card's figure (50.0).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from support.image_tables import png, tsv_image, write_parquet, write_tsv
from support.openai_server import OpenAIServer, ServerScript

# (type, task, source, answer, model response); right: ADE 1/2, COCO 1/1, Omni3D 1/4
CASES = [
    ("2D", "Count", "ADE20K", "(A)", "A"),
    ("2D", "Relation", "ADE20K", "(B)", "A"),
    ("2D", "Count", "COCO", "(C)", "The answer is (C)."),
    ("3D", "Depth", "Omni3D", "(A)", "A"),
    ("3D", "Depth", "Omni3D", "(B)", "A"),
    ("3D", "Distance", "Omni3D", "(A)", "B"),
    ("3D", "Distance", "Omni3D", "(B)", "A"),
]
CHOICES = ["one", "two", "three"]


def _prompt(k: int) -> str:
    return f"Question {k}? Select from the following choices.\n(A) one\n(B) two\n(C) three"


def _row(k: int, case: tuple[str, ...]) -> dict[str, object]:
    kind, task, source, answer, _ = case
    return {"idx": k, "type": kind, "task": task, "question": f"Question {k}?", "choices": CHOICES,
            "answer": answer, "prompt": _prompt(k), "filename": f"img/{kind}/{k}.png", "source": source}


def write_release(folder: Path) -> Path:
    """test_2d/test_3d Parquet files with the image inside, as the Hub serves them."""
    for kind in ("2D", "3D"):
        rows = [{**_row(k, c), "image": {"bytes": png(k), "path": f"{k}.png"}}
                for k, c in enumerate(CASES) if c[0] == kind]
        write_parquet(rows, folder / f"test_{kind.lower()}.parquet")
    return folder


def _card_accuracy(results: pd.DataFrame) -> float:
    """The card's example code, again: accuracy per source, then the combined formula."""
    ade = results[results["source"] == "ADE20K"]["result"].mean()
    coco = results[results["source"] == "COCO"]["result"].mean()
    omni = results[results["source"] == "Omni3D"]["result"].mean()
    return 100 * ((ade + coco) / 2 + omni) / 2


def test_three_layouts_give_the_same_items(tmp_path: Path) -> None:
    spec = get_benchmark("cvbench")
    release = spec.load_items(write_release(tmp_path / "hf"))
    jsonl = tmp_path / "raw" / "test.jsonl"
    jsonl.parent.mkdir()
    jsonl.write_text("".join(json.dumps(_row(k, c)) + "\n" for k, c in enumerate(CASES)))
    for k, case in enumerate(CASES):
        (tmp_path / "raw" / "img" / case[0]).mkdir(parents=True, exist_ok=True)
        (tmp_path / "raw" / "img" / case[0] / f"{k}.png").write_bytes(png(k))
    tsv_rows = [{"index": k, "image": tsv_image([png(k)]), "question": f"Question {k}?", "A": "one",
                 "B": "two", "C": "three", "answer": c[3][1], "category": c[1], "source": c[2]}
                for k, c in enumerate(CASES)]
    kit = spec.load_items(write_tsv(tsv_rows, tmp_path / "kit" / "CV-Bench.tsv"))
    raw = spec.load_items(jsonl)
    assert not release.errors and not raw.errors and not kit.errors
    by_idx = {i.id.split(":")[-1]: i for i in release}
    for a, b in zip(raw, kit, strict=True):
        r = by_idx[a.id]
        assert (r.task, r.dataset, r.ground_truth, r.options, r.question) == \
            (a.task, a.dataset, a.ground_truth, a.options, a.question) == \
            (b.task, b.dataset, b.ground_truth, b.options, b.question)
        assert Path(r.media[0].path).read_bytes() == Path(a.media[0].path).read_bytes() \
            == Path(b.media[0].path).read_bytes()


@pytest.mark.slow
def test_loopback_run_scores_the_card_formula(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = write_release(tmp_path / "hf")
    responses = {_prompt(k): c[4] for k, c in enumerate(CASES)}
    script = ServerScript(answer=lambda text: next(r for q, r in responses.items() if q in text))
    out = tmp_path / "run"
    with OpenAIServer(script) as server:
        args = ["run", "--benchmark", "cvbench", "--data", str(data), "--out", str(out), "--no-progress",
                "--model", f"openai-compatible:{server.url}#m"]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert all(r.n_images == 1 for r in script.answered()) and len(script.answered()) == 7
    right = [1, 0, 1, 1, 0, 0, 0]  # by hand from CASES: response letter == answer letter
    results = pd.DataFrame({"source": [c[2] for c in CASES], "result": right})
    scores = json.loads((out / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(_card_accuracy(results)) == pytest.approx(50.0)  # Δ 0
    assert scores["2D"] == pytest.approx(75.0) and scores["3D"] == pytest.approx(25.0)
    broken = CliRunner().invoke(app, ["breakdown", "--run", str(out)])
    assert broken.exit_code == 0, broken.output
    assert "| accuracy | 50.0 | 100.0 | 25.0 |" in broken.output  # per source: ADE20K, COCO, Omni3D
    assert "| accuracy | 100.0 | 0.0 | 50.0 | 0.0 |" in broken.output  # Count, Relation, Depth, Distance
    report = CliRunner().invoke(app, ["report", str(out), "--out", str(tmp_path / "report")])
    assert report.exit_code == 0, report.output
    assert "<th>2D</th>" in (tmp_path / "report" / "index.html").read_text()


def test_a_json_array_file_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    # EmbSpatial's JSON array passed as CV-Bench data ended in AttributeError: 'list' has no 'get'
    from typer.testing import CliRunner

    from spatialbench.cli.main import app

    table = tmp_path / "test_2d.jsonl"
    table.write_text('[{"question": "q", "answer": "A"}]\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["run", "--benchmark", "cvbench", "--data", str(table),
                                      "--model", "chance-random", "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert result.output.strip() == (f"error: {table}: line 1 is a JSON list, not an object: CV-Bench files "
                                     "hold one question object per line (another benchmark's file?)")
    assert not (tmp_path / "run").exists()
