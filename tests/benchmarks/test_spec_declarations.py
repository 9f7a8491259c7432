"""What a benchmark declares on its spec (media layout, subsets, breakdown options, error taxonomy), and
``-B KEY=VALUE``, the one CLI form of every breakdown option."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from mmsi_remindview_fixtures import build_mmsi, mmsi_responses
from typer.testing import CliRunner

from spatialbench.analysis.errors import default_taxonomy, taxonomies
from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.spec import BreakdownOptionError, MediaLayout
from spatialbench.benchmarks.vsibench.tiny import tiny_ids
from spatialbench.cli.main import app


def _mmsi(tmp_path: Path) -> tuple[Path, Path]:
    data = build_mmsi(tmp_path / "mmsi")
    preds = tmp_path / "p.jsonl"
    lines = (json.dumps({"id": k, "response": v}) + "\n" for k, v in mmsi_responses().items())
    preds.write_text("".join(lines))
    return data, preds


def test_breakdown_option_is_the_sub_bench_table(tmp_path: Path) -> None:
    data, preds = _mmsi(tmp_path)
    args = ["breakdown", "-a", str(data), "-p", str(preds)]
    new = CliRunner().invoke(app, [*args, "-B", "sub_bench=grounding"])
    old = CliRunner().invoke(app, [*args, "--sub-bench", "grounding"])
    assert new.exit_code == old.exit_code == 0, new.output
    assert new.output == old.output and "| accuracy | 80.0 | 100.0 | 50.0 |" in new.output


@pytest.mark.parametrize(
    ("benchmark", "option", "message"),
    [
        ("mmsi-video", "sub_bench=outdoor",
         "error: unknown MMSI-Video-Bench sub-benchmark 'outdoor'; known: indoor, robot, grounding, "
         "difficulty"),
        ("mmsi-video", "level=hard",
         "error: breakdown option 'level' does not apply to mmsi-video (its options: sub_bench (indoor | "
         "robot | grounding | difficulty))"),
        ("mmsi-video", "sub_bench", "error: --breakdown-option: must look like KEY=VALUE, got 'sub_bench'"),
        ("remindview", "sub_bench=robot",
         "error: breakdown option 'sub_bench' does not apply to remindview (its options: none)"),
    ],
)
def test_a_bad_breakdown_option_is_one_line_before_any_work(tmp_path, benchmark, option, message) -> None:
    result = CliRunner().invoke(app, ["breakdown", "-b", benchmark, "-a", str(tmp_path / "missing"),
                                      "-p", str(tmp_path / "missing.jsonl"), "-B", option])
    assert (result.exit_code, result.output.strip()) == (2, message)


def test_declarations_default_for_a_benchmark_that_makes_none() -> None:
    spec = get_benchmark("remindview")
    assert spec.subsets == () and spec.error_taxonomy is None and spec.pruned_ids is None
    assert MediaLayout().expected == "the media paths of the annotation file, relative to <data>"
    with pytest.raises(BreakdownOptionError) as raised:
        spec.check_breakdown_options({"sub_bench": "robot"})
    assert raised.value.option == "sub_bench"
    with pytest.raises(BreakdownOptionError, match="'sub_bench' does not apply to remindview"):
        spec.breakdown_tables([], pd.DataFrame(), sub_bench="robot")  # the library refuses it too


def test_vsibench_subsets_and_their_ids() -> None:
    spec = get_benchmark("vsibench")
    assert [s.name for s in spec.subsets] == ["debiased", "tiny"]
    assert tuple(spec.subset("tiny").ids()) == tiny_ids() and spec.subset("debiased").ids is None
    with pytest.raises(ValueError, match="vsibench has no subset 'huge'; its subsets: debiased, tiny"):
        spec.subset("huge")


def test_error_taxonomies_come_from_the_benchmark_folders() -> None:
    assert list(taxonomies()) == ["vsi-bench", "mmsi-video"]
    assert [default_taxonomy(b) for b in ("vsibench", "mmsi-video", "remindview")] == [
        "vsi-bench", "mmsi-video", "vsi-bench"]
    assert len(taxonomies()["mmsi-video"]["categories"]) == 5
