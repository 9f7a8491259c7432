import json

import pytest
from typer.testing import CliRunner

from spatialbench.audit.report import summarize
from spatialbench.audit.vsibench import audit_items
from spatialbench.benchmarks.vsibench import load_vsibench
from spatialbench.cli.main import app
from spatialbench.generate.vsi.tasks import BUILTIN_TASKS
from spatialbench.scene import load_meta_info

# every built-in task but absolute distance must agree exactly (the official distances are sampled estimates)
EXACT_TASKS = tuple(t for t in BUILTIN_TASKS if t != "object_abs_distance")


@pytest.fixture(scope="module")
def scenes(shared_data):
    return load_meta_info(shared_data / "vsibench" / "meta_info")


@pytest.fixture(scope="module")
def samples(shared_data):
    return shared_data / "vsibench" / "official_samples"


@pytest.mark.parametrize("questions", ["subset_300.jsonl", "gemini3flash_5scenes/questions"])
def test_official_answers_agree(scenes, samples, questions):
    summary = summarize(audit_items(load_vsibench(samples / questions), scenes))
    for task in EXACT_TASKS:
        entry = summary["tasks"][task]
        assert entry["disagree"] == 0 and entry["unresolved"] == 0 and entry["agree"] > 0, task
    assert summary["tasks"]["route_planning"]["skipped"] > 0
    stats = summary["tasks"]["object_abs_distance"]["difference_stats"]
    # exact closest-point distance is below the paper's sampled estimate: negative mean difference
    assert -0.05 < stats["mean"] < 0 and stats["share_within_0.1"] > 0.9


def _row(**update):
    row = {
        "id": 1,
        "dataset": "arkitscenes",
        "scene_name": "41254432",
        "question_type": "object_counting",
        "question": "How many sofa(s) are in this room?",
        "options": None,
        "ground_truth": "2",
    }
    return {**row, **update}


def test_wrong_answer_and_unknown_category_are_reported(scenes, tmp_path):
    rows = [
        _row(),
        _row(id=2, ground_truth="3"),
        _row(id=3, question="How many piano(s) are in this room?"),
        _row(id=4, scene_name="nope"),
        _row(id=5, question="Count the sofas."),
    ]
    path = tmp_path / "q.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    records = {r.id: r for r in audit_items(load_vsibench(path), scenes)}
    assert records["1"].status == "agree"
    assert (
        records["2"].status == "disagree"
        and records["2"].recomputed == "2"
        and records["2"].difference == -1.0
    )
    assert records["3"].status == "unresolved" and "'piano' not in scene" in records["3"].reason
    assert "not in the meta-info" in records["4"].reason
    assert "template" in records["5"].reason


def test_cli_writes_audit_json(shared_data, samples, tmp_path):
    result = CliRunner().invoke(
        app,
        [
            "audit",
            "vsibench",
            "--meta-info",
            str(shared_data / "vsibench" / "meta_info"),
            "--questions",
            str(samples / "subset_300.jsonl"),
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    audit = json.loads((tmp_path / "audit.json").read_text())
    assert audit["tasks"]["object_counting"]["agree"] == 30
    assert len(audit["tasks"]["object_abs_distance"]["differences"]) == 30
    assert "object_abs_distance" in result.output and "DISAGREE" in result.output
