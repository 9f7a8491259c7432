"""``spatialbench import`` (issue 22 item 5): another tool's results enter ``compare`` and ``report``.

The lmms-eval 0.7.3 log of ../shared/data/lmms_eval answers the 66 questions of
``demo_seed3_annotations.jsonl``; imported, it is a scored run folder beside a native run.
Hand check of the figures below: official extraction leaves 12 of the 66 verbose answers unparsed
(the log's README: a quarter are verbose forms), the robust one parses them.
"""

import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from spatialbench.api.importing import import_run, tool_version
from spatialbench.cli.main import app
from spatialbench.runs.folder import open_run
from support.shared_data import require_file

LOG = "lmms_eval/lmms_eval_0.7.3_samples_vsibench.jsonl"
ANNOTATIONS = "lmms_eval/demo_seed3_annotations.jsonl"


def _invoke(*args: object) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def runs(shared_data: Path, tmp_path: Path) -> tuple[Path, Path]:
    """An imported lmms-eval run and a native chance-frequency run of the same 66 items."""
    log, annotations = require_file(shared_data / LOG), require_file(shared_data / ANNOTATIONS)
    out = _invoke("import", log, "--benchmark", "vsibench", "--annotations", annotations,
                  "--out", tmp_path / "lmms", "--extract", "official")
    assert "imported 66 answer(s) from lmms-eval 0.7.3" in out
    _invoke("run", "--benchmark", "vsibench", "--data", annotations, "--model", "chance-frequency",
            "--out", tmp_path / "native", "--no-progress")
    return tmp_path / "lmms", tmp_path / "native"


def test_the_config_names_tool_version_and_extraction(runs: tuple[Path, Path], shared_data: Path) -> None:
    record = json.loads((runs[0] / "config.json").read_text())
    assert record["backend"] == {"imported": True, "tool": "lmms-eval", "version": "0.7.3",
                                 "format": "lmms-eval", "file": str(shared_data / LOG), "frames": None,
                                 "response": "lmms-eval's filtered_resps (the output of its filters)"}
    assert record["config"]["scoring"]["extract"] == "official"
    assert record["config"]["model"]["name"] == "lmms-eval:lmms_eval_0.7.3_samples_vsibench"
    run = open_run(runs[0], scored=True)
    assert run.kind == "model" and len(run.items()) == 66
    assert int(run.rows["answered"].sum()) == 66 - 12


def test_compare_and_report_include_it_beside_a_native_run(runs: tuple[Path, Path], tmp_path: Path) -> None:
    imported, native = runs
    _invoke("compare", native, imported, "--format", "csv", "--out", tmp_path / "cmp")
    table = pd.read_csv(tmp_path / "cmp" / "compare_native_vs_lmms.csv")  # named by the runs compared
    table = table.set_index(table.columns[0])
    assert {"lmms", "native"} <= set(table.index)
    # the imported run's own score (scores.md of the import) and the native baseline's, side by side
    assert "| all | 63.5 |" in (imported / "scores.md").read_text()
    # native: chance-frequency with the continuous MRA optimum (issue 27; 49.5 with the restricted rule)
    assert (round(table.loc["lmms", "Avg."], 1), round(table.loc["native", "Avg."], 1)) == (63.5, 50.7)
    assert table.loc["lmms", "Appr. Order"] == 100.0
    _invoke("report", native, imported, "--out", tmp_path / "report")
    html = (tmp_path / "report" / "index.html").read_text()
    assert "lmms-eval:lmms_eval_0.7.3_samples_vsibench" in html and "chance-frequency" in html


def test_a_csv_is_imported_as_csv(shared_data: Path, tmp_path: Path) -> None:
    annotations = require_file(shared_data / ANNOTATIONS)
    rows = [json.loads(line) for line in annotations.read_text().splitlines()[:3]]
    table = tmp_path / "answers.csv"
    pd.DataFrame({"id": [r["id"] for r in rows], "response": [r["ground_truth"] for r in rows]}).to_csv(
        table, index=False)
    outcome = import_run(table, "vsibench", annotations, tmp_path / "csv", model="mine")
    assert (outcome.tool, outcome.version, outcome.answered) == ("csv", "unknown", 3)
    assert outcome.run.model == "csv:mine" and outcome.run.score().table.average == pytest.approx(100.0)


def test_a_file_that_matches_nothing_leaves_no_folder(shared_data: Path, tmp_path: Path) -> None:
    annotations = require_file(shared_data / ANNOTATIONS)
    stray = tmp_path / "stray.csv"
    stray.write_text("id,response\nno-such-item,A\n")
    result = CliRunner().invoke(app, ["import", str(stray), "-b", "vsibench", "-a", str(annotations),
                                      "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "no response matches an item" in result.output, result.output
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("version", ["0.6.1", "0.7.3"])
def test_lmms_evals_aggregated_results_file_names_the_sample_log(shared_data: Path, tmp_path: Path,
                                                                 version: str) -> None:
    annotations = require_file(shared_data / ANNOTATIONS)
    results = require_file(shared_data / f"lmms_eval/lmms_eval_{version}_results.json")
    result = CliRunner().invoke(app, ["import", str(results), "-b", "vsibench", "-a", str(annotations),
                                      "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert result.output == (
        f"error: {results}: this is lmms-eval's aggregated results file (scores per task, no answers); "
        "the file to give is the per-sample log lmms-eval writes beside it with --log_samples, "
        "*_samples_<task>.jsonl\n")
    assert not (tmp_path / "x").exists()


def test_the_version_comes_from_the_file_name() -> None:
    assert tool_version(Path("lmms_eval_0.6.1_samples_vsibench.jsonl")) == "0.6.1"
    assert tool_version(Path("20250101_samples_vsibench.jsonl")) == "unknown"


def test_serve_lists_it_beside_the_native_run(runs: tuple[Path, Path], tmp_path: Path,
                                              shared_data: Path) -> None:
    from fastapi.testclient import TestClient

    from spatialbench.web.app import create_app
    from spatialbench.web.state import ServeConfig

    app = create_app(ServeConfig(data=shared_data / ANNOTATIONS, workdir=tmp_path / "work", token="t",
                                 runs=(tmp_path,)))
    page = TestClient(app, headers={"X-Spatialbench-Token": "t"}).get("/scores")
    assert page.status_code == 200
    assert "lmms" in page.text and "native" in page.text and "63.5" in page.text


def test_every_row_not_imported_is_listed_with_its_reason(shared_data: Path, tmp_path: Path) -> None:
    # newcomer: ids 999 and abc (in no annotation) were dropped without a word; lines 5-6 alone were listed
    annotations = require_file(shared_data / ANNOTATIONS)
    table = tmp_path / "unk.csv"
    table.write_text("id,response\n0,3\n999,4\nabc,1\n0,5\n,2\n")
    result = CliRunner().invoke(app, ["import", str(table), "-b", "vsibench", "-a", str(annotations),
                                      "--out", str(tmp_path / "unk")])
    assert result.exit_code == 0, result.output
    assert [line for line in result.output.splitlines() if line.startswith(str(table))] == [
        f"{table}:3: field 'id': no item '999' in {annotations} (not imported)",
        f"{table}:4: field 'id': no item 'abc' in {annotations} (not imported)",
        f"{table}:5: field 'id': second prediction for item '0' (first kept)",
        f"{table}:6: field 'id': empty, and no question to find the item by",
    ]
    assert "imported 1 answer(s)" in result.output
