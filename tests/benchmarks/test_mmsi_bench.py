"""MMSI-Bench: the Parquet release and the VLMEvalKit TSV load alike, a loopback run scores the official way.

The official rule (github InternRobotics/MMSI-Bench, ``vlmeval/dataset/mmsi_bench.py``,
``extract_single_choice_with_word_boundary`` then ``answer == predict[0]``) is transcribed independently in
``_official_score`` below and applied to the same responses: per-item scores and overall agree (Δ 0).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.mmsi_bench import mmsi_choice, prompt_text
from spatialbench.cli.main import app
from spatialbench.scoring import score_items
from support.image_tables import png, tsv_image, write_parquet, write_tsv
from support.openai_server import OpenAIServer, ServerScript

POS, ATTR, MSR = "Positional Relationship (Cam.-Obj.)", "Attribute (Meas.)", "MSR"
# (question type, answer, number of images, the scripted model response)
CASES = [
    (POS, "A", 2, "``A``"),
    (POS, "B", 1, "The answer is B."),
    (ATTR, "C", 3, "A bike stands left of the car, so `D`"),  # backticks first: D
    (ATTR, "D", 2, "A bike stands left of the car, so D"),  # "A bike" is the article: D
    (ATTR, "A", 2, "I think the answer is b"),  # no capital A-D: no answer
    (MSR, "B", 2, "B. Because C is farther"),
]
# by hand: q0 A=A 1, q1 B 1, q2 D!=C 0, q3 D 1, q4 none 0, q5 B 1
EXPECTED = [1, 1, 0, 1, 0, 1]


def _question(k: int) -> str:
    return f"Question {k}: where is object {k}? Options: A: left, B: right, C: front, D: behind"


def _images(k: int, n: int) -> list[bytes]:
    return [png(10 * k + j) for j in range(n)]


def _write_both(folder: Path) -> tuple[Path, Path]:
    parquet = [
        {"id": k, "images": _images(k, n), "question_type": kind, "question": _question(k),
         "answer": answer, "thought": "..."}
        for k, (kind, answer, n, _) in enumerate(CASES)
    ]
    tsv = [
        {"index": k, "image": tsv_image(_images(k, n)), "question": _question(k), "answer": answer,
         "category": kind}
        for k, (kind, answer, n, _) in enumerate(CASES)
    ]
    hf = write_parquet(parquet, folder / "hf" / "MMSI_Bench.parquet")
    return hf, write_tsv(tsv, folder / "kit" / "MMSI_Bench.tsv")


def _official_score(prediction: str, answer: str) -> float:
    """The official rule, written again from the official file (not calling spatialbench)."""
    pred = prediction
    for pattern in (r"``([^`]*)``", r"`([^`]*)`"):
        found = re.search(pattern, pred)
        if found:
            pred = found.group(1)
    found = re.search(r"\b[A-D]\b(?!\s[a-zA-Z])", pred)
    if not found:
        return 0.0
    return 1.0 if answer.lower().strip() == found.group().lower().strip()[0] else 0.0


def test_parquet_and_tsv_give_the_same_items(tmp_path: Path) -> None:
    parquet, tsv = _write_both(tmp_path)
    spec = get_benchmark("mmsi-bench")
    from_hf, from_kit = spec.load_items(parquet), spec.load_items(tsv)
    assert not from_hf.errors and not from_kit.errors and len(from_hf) == len(CASES)
    for a, b, (kind, answer, n, _) in zip(from_hf, from_kit, CASES, strict=True):
        assert (a.id, a.task, a.ground_truth, a.question) == (b.id, b.task, b.ground_truth, b.question)
        assert (a.task, a.ground_truth, len(a.media)) == (kind, answer, n)
        assert [Path(m.path).read_bytes() for m in a.media] == [Path(m.path).read_bytes() for m in b.media]
    assert Path(from_hf[0].media[1].path).read_bytes() == png(1)
    assert prompt_text(from_hf[0]).endswith("\nAnswer with the option's letter from the given choices "
                                            "directly. Enclose the option's letter within ``.")


def test_a_bad_row_is_a_row_error(tmp_path: Path) -> None:
    rows = [{"index": 0, "image": tsv_image([png(0)]), "question": "q", "answer": "E", "category": MSR},
            {"index": 1, "image": "[not json", "question": "q", "answer": "A", "category": MSR}]
    loaded = get_benchmark("mmsi-bench").load_items(write_tsv(rows, tmp_path / "MMSI_Bench.tsv"))
    assert not loaded and [e.line for e in loaded.errors] == [2, 3]
    assert "not one of A-D" in str(loaded.errors[0]) and "JSON list" in str(loaded.errors[1])


def test_extraction_matches_the_official_rule() -> None:
    ours = [float(mmsi_choice(r).value == a) for _, a, _, r in CASES]
    official = [_official_score(r, a) for _, a, _, r in CASES]
    assert ours == official == EXPECTED


@pytest.mark.slow
def test_loopback_run_scores_and_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    parquet, _ = _write_both(tmp_path)
    responses = {_question(k): r for k, (*_, r) in enumerate(CASES)}
    script = ServerScript(answer=lambda text: next(r for q, r in responses.items() if q in text))
    out = tmp_path / "run"
    with OpenAIServer(script) as server:
        args = ["run", "--benchmark", "mmsi-bench", "--data", str(parquet), "--out", str(out),
                "--no-progress", "--model", f"openai-compatible:{server.url}#m"]
        result = CliRunner().invoke(app, args)
        again = CliRunner().invoke(app, [*args[:-4], str(tmp_path / "run2"), *args[-3:]])
    assert result.exit_code == 0, result.output
    assert again.exit_code == 0, again.output
    compared = CliRunner().invoke(app, ["compare", str(out), str(tmp_path / "run2")])
    assert compared.exit_code == 0, compared.output
    assert "66.7" in compared.output
    assert sorted(r.n_images for r in script.answered()) == sorted(2 * [n for _, _, n, _ in CASES])
    scores = json.loads((out / "scores.json").read_text())
    official = [_official_score(r, a) for _, a, _, r in CASES]
    assert scores["overall"] == pytest.approx(100 * sum(official) / len(official))  # 66.7, Δ 0
    assert scores[POS] == 100.0 and scores[ATTR] == pytest.approx(100 / 3) and scores[MSR] == 100.0
    report = CliRunner().invoke(app, ["report", str(out), "--out", str(tmp_path / "report")])
    assert report.exit_code == 0, report.output
    html = (tmp_path / "report" / "index.html").read_text()
    assert "mmsi-bench report" in html and "<th>Meas.</th>" in html  # under its main category, as the paper
    assert '<th class="group" colspan="1">Attribute</th>' in html and "<th>MSR</th>" in html


def test_breakdown_of_a_vanilla_run_is_the_papers_table(tmp_path: Path) -> None:
    """A vanilla run's breakdown: accuracy per question type and per main category (Table 2), not empty."""
    parquet, _ = _write_both(tmp_path)
    spec = get_benchmark("mmsi-bench")
    items = spec.load_items(parquet)
    responses = {item.id: r for item, (*_, r) in zip(items, CASES, strict=True)}
    rows = score_items(items, responses, spec.scoring).rows
    assert spec.breakdowns is not None
    by_type, by_category = spec.breakdowns(items, rows)
    # by hand from EXPECTED: Cam.-Obj. q0 q1 = 2/2, Meas. q2 q3 q4 = 1/3, MSR q5 = 1/1, Avg. 4/6
    assert [(c.group, c.n, round(c.accuracy, 1)) for c in by_type.cells] == [
        ("Cam.-Obj.", 2, 100.0), ("Meas.", 3, 33.3), ("MSR", 1, 100.0)]
    assert [(c.group, c.n, round(c.accuracy, 1)) for c in by_category.cells] == [
        ("Positional Relationship", 2, 100.0), ("Attribute", 3, 33.3), ("MSR", 1, 100.0)]
    assert round(by_type.average, 1) == round(by_category.average, 1) == 66.7
