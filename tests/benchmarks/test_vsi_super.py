"""VSI-SUPER (Cambrian-S): Recall and Count load from the release tables, run on the loopback server, score.

Peer bugs that must not be copied (lmms-eval ``vsi_super_recall`` / ``vsi_super_count``): Recall there takes
the first A-D letter of the upper-cased response, so "The answer is B." reads A (the "A" of "ANSWER"); the
streaming count there averages over ``zip(predictions, answers)``, so "[3]" against [3, 5, 8, 12] is 1.0.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.vsi_super import read_counts, streaming_score, streaming_scores
from spatialbench.cli.main import app
from spatialbench.scoring.scorer import score_items
from support.openai_server import OpenAIServer, ServerScript
from support.videos import encode_indexed_video

OPTIONS = ["Bathtub, Sink, Chair, Bed", "Sink, Bed, Chair, Bathtub", "Chair, Bed, Sink, Bathtub",
           "Bed, Chair, Bathtub, Sink"]
# Recall: (duration, answer, response); right by hand: 10mins 2/2, 30mins 0/1, 60mins 1/1
RECALL = [("10mins", "B", "The answer is B."), ("10mins", "C", "C"), ("30mins", "A", "D. Bed, Chair"),
          ("60mins", "D", "Answer: (D)")]
# Count: (duration, answer, response)
COUNT = [("10mins", 10, "10"), ("10mins", 10, "There are 8 chairs."), ("30mins", 20, "30")]
# MRA by hand, thresholds θ = 0.50, 0.55, ..., 0.95, a hit when |ŷ-y|/y <= 1-θ (the official ``<=``, floats):
# 10 vs 10 → 1.0; 8 vs 10: 0.2 <= 0.5 ... 0.25 (6 hits; 1-0.8 is 0.19999... in floats) → 0.6;
# 30 vs 20: 0.5 <= 0.5 only → 0.1
COUNT_MRA = [1.0, 0.6, 0.1]


def _write(folder: Path, rows: list[dict[str, object]]) -> Path:
    (folder / "videos").mkdir(parents=True, exist_ok=True)
    for row in rows:
        encode_indexed_video(folder / str(row["video_path"]), 8, 64, 64)
    (folder / "test.json").write_text(json.dumps(rows))
    return folder


def recall_release(folder: Path) -> Path:
    return _write(folder, [{"id": k, "video_path": f"videos/r{k}.mp4", "split": d, "answer": a,
                            "question": f"Recall question {k}: in which order did the objects appear?",
                            "options": OPTIONS} for k, (d, a, _) in enumerate(RECALL)])


def count_release(folder: Path) -> Path:
    return _write(folder, [{"id": k, "video_path": f"videos/c{k}.mp4", "split": d, "answer": a,
                            "question": f"Count question {k}: how many chairs are in the video?"}
                           for k, (d, a, _) in enumerate(COUNT)])


def _lmms_recall_letter(text: str) -> str | None:
    """lmms-eval's reading, again (the peer bug): the first of A-D in the upper-cased text."""
    return next((c for c in text.upper() if c in "ABCD"), None)


def test_recall_reads_the_answer_is_b_as_b(tmp_path: Path) -> None:
    items = list(get_benchmark("vsi-super-recall").load_items(recall_release(tmp_path / "r")))
    rules = get_benchmark("vsi-super-recall").scoring
    result = score_items(items[:1], {items[0].id: "The answer is B."}, rules)
    assert result.rows["extracted"].tolist() == ["B"] and result.rows["score"].tolist() == [1.0]
    assert _lmms_recall_letter("The answer is B.") == "A"  # what the peer reads: wrong


def test_streaming_count_scores_every_expected_answer() -> None:
    answers = [3, 5, 8, 12]
    assert streaming_scores("[3]", answers).tolist() == [1.0, 0.0, 0.0, 0.0]
    assert streaming_score("[3]", answers) == pytest.approx(0.25)  # lmms-eval: mean over zip → 1.0
    peer = np.mean([1.0 for p, a in zip([3.0], answers, strict=False) if p == a])  # the peer's average, again
    assert peer == 1.0 and streaming_score("[3]", answers) != peer
    assert streaming_score("Counts so far: [3, 5, 8, 12]", answers) == 1.0
    assert streaming_score("thinking 1 2 ... final [3, 5, 8, 12, 99]", answers) == 1.0  # extra ignored
    assert streaming_score(None, answers) == 0.0 and read_counts("no idea") == []


def test_count_loader_rows(tmp_path: Path) -> None:
    loaded = get_benchmark("vsi-super-count").load_items(count_release(tmp_path / "c"))
    assert not loaded.errors and [i.dataset for i in loaded] == ["10mins", "10mins", "30mins"]
    assert [i.ground_truth for i in loaded] == ["10", "10", "20"]
    assert Path(next(iter(loaded)).media[0].path).is_file()
    rows = [{"id": 0, "video_path": "v.mp4", "split": "10mins", "answer": [3, 5]},
            {"id": 1, "video_path": "v.mp4", "answer": 2}, {"id": 2, "video_path": "v.mp4", "split": "x",
                                                             "answer": "many"}]
    (tmp_path / "bad.json").write_text(json.dumps(rows))
    bad = get_benchmark("vsi-super-count").load_items(tmp_path / "bad.json")
    assert len(list(bad)) == 0 and [e.field for e in bad.errors] == ["answer", "split", "answer"]


def _run(benchmark: str, data: Path, out: Path, cases: list[tuple[str, object, str]]) -> ServerScript:
    responses = {f"question {k}:": c[2] for k, c in enumerate(cases)}
    script = ServerScript(answer=lambda text: next(r for q, r in responses.items() if q in text))
    with OpenAIServer(script) as server:
        args = ["run", "--benchmark", benchmark, "--data", str(data), "--out", str(out), "--no-progress",
                "--frames", "uniform:4", "--model", f"openai-compatible:{server.url}#m"]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return script


@pytest.mark.slow
def test_recall_loopback_run_scores_per_duration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    out = tmp_path / "run"
    script = _run("vsi-super-recall", recall_release(tmp_path / "r"), out, RECALL)
    assert len(script.answered()) == 4 and all(r.n_images == 4 for r in script.answered())
    scores = json.loads((out / "scores.json").read_text())
    assert (scores["10mins"], scores["30mins"], scores["60mins"]) == (100.0, 0.0, 100.0)
    assert scores["overall"] == pytest.approx(75.0)  # 3 of 4 questions
    report = CliRunner().invoke(app, ["report", str(out), "--out", str(tmp_path / "report")])
    assert report.exit_code == 0, report.output
    assert "<th>10mins</th>" in (tmp_path / "report" / "index.html").read_text()


@pytest.mark.slow
def test_count_loopback_run_scores_mra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    out = tmp_path / "run"
    _run("vsi-super-count", count_release(tmp_path / "c"), out, COUNT)
    scores = json.loads((out / "scores.json").read_text())
    assert scores["10mins"] == pytest.approx(100 * (1.0 + 0.6) / 2)
    assert scores["30mins"] == pytest.approx(10.0)
    assert scores["overall"] == pytest.approx(100 * np.mean(COUNT_MRA))
    rows = pd.read_csv(out / "items.csv")
    assert rows.sort_values("id")["score"].round(6).tolist() == COUNT_MRA


def test_a_bad_jsonl_line_is_named_by_its_line(tmp_path: Path) -> None:
    """Line 3 cut short: the error names line 3 (it named line 1, the line of the one line parsed)."""
    good = [json.dumps({"id": k, "video_path": f"v{k}.mp4", "question": "q", "answer": 5, "split": "10mins"})
            for k in range(2)]
    path = tmp_path / "count.jsonl"
    path.write_text("\n".join([*good, '{"id": 2, "video_path": "v']) + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        get_benchmark("vsi-super-count").load_items(path)
    assert raised.value.line == 3  # type: ignore[attr-defined]
    assert "invalid JSON at line 3: Unterminated string starting at (column 25)" in str(raised.value)
