"""VSI-SUPER data read as the wrong one of its three benchmarks: one line saying what it holds (issue 24).

Streaming count on Count or Recall data said only "no items"; Count on Recall data listed each row's
answer as "not a number", Recall on Count data each row's missing options.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks import test_vsi_super, test_vsi_super_streaming
from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from spatialbench.records.errors import AnnotationFileError

STREAMING = "no streaming-count rows (split *_streaming, answers: a count per query time)"
COUNT = "no single-count rows (answer: one number)"
RECALL = "no Recall rows (options and a letter)"
BUILDS: dict[str, Callable[[Path], Path]] = {
    "vsi-super-recall": test_vsi_super.recall_release,
    "vsi-super-count": test_vsi_super.count_release,
    "vsi-super-count-streaming": test_vsi_super_streaming._release,
}
CASES = [
    (
        "vsi-super-count-streaming",
        "vsi-super-recall",
        f"{STREAMING}: it holds 4 vsi-super-recall row(s); use --benchmark vsi-super-recall",
    ),
    (
        "vsi-super-count-streaming",
        "vsi-super-count",
        f"{STREAMING}: it holds 3 vsi-super-count row(s); use --benchmark vsi-super-count",
    ),
    (
        "vsi-super-count",
        "vsi-super-recall",
        f"{COUNT}: it holds 4 vsi-super-recall row(s); use --benchmark vsi-super-recall",
    ),
    (
        "vsi-super-recall",
        "vsi-super-count",
        f"{RECALL}: it holds 3 vsi-super-count row(s); use --benchmark vsi-super-count",
    ),
    (
        "vsi-super-recall",
        "vsi-super-count-streaming",
        f"{RECALL}: it holds 3 vsi-super-count-streaming "
        "row(s), 1 vsi-super-count row(s); use --benchmark vsi-super-count-streaming",
    ),
]


@pytest.mark.parametrize(("reader", "owner", "reason"), CASES, ids=[f"{o}-as-{r}" for r, o, _ in CASES])
def test_another_vsi_super_benchmarks_data(reader: str, owner: str, reason: str, tmp_path: Path) -> None:
    data = BUILDS[owner](tmp_path / "data")
    with pytest.raises(AnnotationFileError) as refused:
        get_benchmark(reader).load_items(data)
    assert str(refused.value) == f"{data.resolve()}: {reason}"


def test_the_count_table_still_feeds_both_count_benchmarks(tmp_path: Path) -> None:
    data = test_vsi_super_streaming._release(tmp_path / "data")  # one single count beside three streaming
    assert len(get_benchmark("vsi-super-count").load_items(data)) == 1
    assert len(get_benchmark("vsi-super-count-streaming").load_items(data)) == 3


def test_run_says_it_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = test_vsi_super.count_release(tmp_path / "data")
    args = [
        "run",
        "--benchmark",
        "vsi-super-count-streaming",
        "--data",
        str(data),
        "--out",
        str(tmp_path / "o"),
        "--no-progress",
        "--model",
        "openai-compatible:http://127.0.0.1:9/v1#m",
    ]
    result = CliRunner().invoke(app, args)
    assert (result.exit_code, result.output) == (2, f"error: {data.resolve()}: {CASES[1][2]}\n")


def test_a_table_of_no_vsi_super_benchmark_is_refused_in_one_line(tmp_path: Path) -> None:
    """A table without a video column (MMSI-Bench's) listed each row's missing video: now one line."""
    from benchmarks import test_mmsi_bench

    parquet = test_mmsi_bench._write_both(tmp_path)[0]
    with pytest.raises(AnnotationFileError) as refused:
        get_benchmark("vsi-super-recall").load_items(parquet)
    assert str(refused.value) == (
        f"{parquet}: no column 'video_path' / 'video' (columns: id, images, question_type, question, answer, "
        "thought); another benchmark's file? (its columns are those of --benchmark mmsi-bench)")
    listed = tmp_path / "rows.json"
    listed.write_text('[{"id": "x", "question": "q"}]')
    with pytest.raises(AnnotationFileError) as unnamed:
        get_benchmark("vsi-super-count").load_items(listed)
    assert str(unnamed.value) == f"{listed}: no column 'video_path' / 'video' (columns: id, question)"
