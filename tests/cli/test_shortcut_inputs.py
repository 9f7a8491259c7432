"""What a newcomer typed, following docs/workflows/shortcuts.md and answerability.md, and what went wrong."""

from __future__ import annotations

from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from support.planted_shortcuts import planted_choices
from support.shared_data import require_file, shared_data_dir


def _planted(tmp_path, n=60):  # type: ignore[no-untyped-def]
    items, _ = planted_choices(n, planted=True)
    folder = tmp_path / "planted"
    folder.mkdir()
    get_benchmark("vsibench").write(items, folder)
    return folder


def test_answerability_of_media_without_visibility_says_so(tmp_path):  # type: ignore[no-untyped-def]
    # it printed an empty table and exit 0: nothing said the official videos carry no visibility
    sample = require_file(shared_data_dir() / "vsibench" / "official_samples" / "subset_300.jsonl")
    result = CliRunner().invoke(app, ["answerability", "--data", str(sample), "--frames", "coverage:4"])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert lines[0] == (
        f"error: {sample}: no item's media has per-frame visibility (synthetic scenes of "
        "`spatialbench demo` or `generate synthetic` only); nothing to report"
    )


def test_a_missing_budgets_from_file_is_named_with_its_option(tmp_path):  # type: ignore[no-untyped-def]
    # it printed "[Errno 2] No such file or directory: 'missing.txt'"
    args = [
        "debias",
        "--data",
        str(_planted(tmp_path)),
        "--alloc",
        "per_type",
        "--budgets-from",
        str(tmp_path / "missing.txt"),
        "--out",
        str(tmp_path / "db"),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.output.strip() == f"error: --budgets-from {tmp_path / 'missing.txt'}: no such file"
    assert not (tmp_path / "db").exists()


def test_debias_says_why_it_removed_less_than_the_budget(tmp_path):  # type: ignore[no-untyped-def]
    # on the one-scene demo it printed "removed 0 of 36" and nothing else: every type sat at --floor 10
    args = [
        "debias",
        "--data",
        str(_planted(tmp_path)),
        "--budget",
        "10",
        "--batch-size",
        "4",
        "--floor",
        "55",
        "--out",
        str(tmp_path / "db"),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("removed 5 of 60: TsT-RF ")
    assert result.output.splitlines()[1] == (
        "group all: removed 5 of its budget 10 (no_candidates): every question type left is at --floor 55 "
        "or has no bias score (a type too small for k=5 folds has none)"
    )
