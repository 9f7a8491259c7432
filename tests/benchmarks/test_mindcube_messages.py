"""MindCube's one-line message for a folder holding only MindCube-Tiny (issue 24)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.test_mindcube import write_release
from spatialbench.cli.main import app


def test_a_folder_with_only_the_tiny_file_suggests_subset_tiny(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = write_release(tmp_path / "hf")
    args = ["run", "--benchmark", "mindcube", "--data", str(data), "--out", str(tmp_path / "run"),
            "--no-progress", "--model", "openai-compatible:http://127.0.0.1:9/v1#m"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.output == (
        f"error: no MindCube file of subset full (MindCube.jsonl or MindCubeBench_raw_qa.tsv) in {data}, "
        f"{data}/raw, {data}/data/raw; the folder holds the tiny subset's "
        f"{data}/data/raw/MindCube_tinybench.jsonl: add --subset tiny\n"
    )
