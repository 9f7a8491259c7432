"""``compare`` of one benchmark's runs on its two official formats: the same questions (issue 24).

Runs on MMSI-Bench's Parquet and on its TSV were "not over the same questions" because their data paths
differ; a question is now its id with its task and ground truth. A TSV with one answer changed still is
another set of questions.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from benchmarks import test_mmsi_bench
from spatialbench.cli.main import app
from support.image_tables import write_tsv


def _run(data: Path, out: Path) -> Path:
    args = ["run", "--benchmark", "mmsi-bench", "--data", str(data), "--model", "chance-frequency",
            "--out", str(out), "--no-progress"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


def _compare(tmp_path: Path, *runs: Path) -> str:
    result = CliRunner().invoke(app, ["compare", *map(str, runs), "--out", str(tmp_path / "compared")])
    assert result.exit_code == 0, result.output
    return result.output


def test_parquet_and_tsv_runs_are_over_the_same_questions(tmp_path: Path) -> None:
    parquet, tsv = test_mmsi_bench._write_both(tmp_path / "data")
    out = _compare(tmp_path, _run(parquet, tmp_path / "hf"), _run(tsv, tmp_path / "kit"))
    assert "items differ" not in out
    assert "| hf |" in out and "| kit |" in out


def test_a_tsv_with_another_answer_is_other_questions(tmp_path: Path) -> None:
    parquet, tsv = test_mmsi_bench._write_both(tmp_path / "data")
    rows = pd.read_csv(tsv, sep="\t", dtype=str, keep_default_na=False).to_dict(orient="records")
    rows[0]["answer"] = "D" if rows[0]["answer"] != "D" else "C"
    changed = write_tsv(rows, tmp_path / "changed" / "MMSI_Bench.tsv")
    out = _compare(tmp_path, _run(parquet, tmp_path / "hf"), _run(changed, tmp_path / "kit"))
    assert ("items differ: hf 6 item(s) of hf/MMSI_Bench.parquet, kit 6 item(s) of changed/MMSI_Bench.tsv; "
            "these scores are not over the same questions") in out
