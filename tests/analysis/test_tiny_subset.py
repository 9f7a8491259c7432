"""VSI-Bench (tiny) as package data and the loader's ``subset="tiny"`` (missing ids reported, not fatal)."""

import json

import pytest

from spatialbench.benchmarks.vsibench import load_vsibench
from spatialbench.benchmarks.vsibench.tiny import select_tiny, tiny_ids
from support.shared_data import require_file, shared_data_dir

# ids of the tiny list that are gaps in the released test set (../shared/data/vsibench/tiny/README.md)
KNOWN_MISSING = ["2559", "2771", "3329", "3348", "4689", "4707", "4818", "5146"]


def test_package_list_is_the_official_file():
    official = require_file(shared_data_dir() / "vsibench" / "tiny" / "ids.txt").read_text().split()
    assert list(tiny_ids()) == official
    assert len(tiny_ids()) == 400 and len(set(tiny_ids())) == 400
    assert tiny_ids()[:3] == ("3", "9", "22") and tiny_ids()[-1] == "5147"


def test_subset_tiny_on_the_official_sample_reports_what_is_missing():
    path = require_file(shared_data_dir() / "vsibench" / "official_samples" / "subset_300.jsonl")
    released = [json.loads(line) for line in path.read_text().splitlines()]
    # by hand: the sample's ids that are in the tiny list, in file order
    expected = [str(r["id"]) for r in released if str(r["id"]) in set(tiny_ids())]
    items = load_vsibench(path, subset="tiny")
    assert [i.id for i in items] == expected and len(expected) == 23
    missing = [e for e in items.errors if e.file == "tiny_ids.txt"]
    assert len(missing) == 400 - 23
    first = next(e for e in missing if "2559" in e.message)
    assert str(first) == (
        "tiny_ids.txt:171: field 'id': VSI-Bench (tiny) id 2559 is not in the annotations; skipped")
    assert set(KNOWN_MISSING) <= {e.message.split()[3] for e in missing}


def test_selection_note_names_missing_ids(tmp_path):
    rows = [{"id": int(i), "dataset": "scannet", "scene_name": "s", "question_type": "object_counting",
             "question": "How many chair(s) are in this room?", "options": None, "ground_truth": "2"}
            for i in ["3", "9", "10"]]
    path = tmp_path / "test.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    selection = select_tiny(load_vsibench(path))
    assert [i.id for i in selection.items] == ["3", "9"]
    assert selection.note().startswith("VSI-Bench (tiny): 2 of 400 ids found; missing: 22, 27, 37,")


def test_unknown_subset_names_the_choices(tmp_path):
    path = tmp_path / "test.jsonl"
    path.write_text("")
    with pytest.raises(ValueError, match="subset must be one of full, debiased, tiny, got 'huge'"):
        load_vsibench(path, subset="huge")


def test_run_with_subset_tiny_runs_the_tiny_items_and_lists_the_missing(tmp_path):
    from typer.testing import CliRunner

    from spatialbench.cli.main import app
    from support.vsi_data import make_vsibench

    make_vsibench(tmp_path / "data", n_videos=2, per_video=4)  # ids 0..7: only 3 is in the tiny list
    args = ["run", "--benchmark", "vsibench", "--data", str(tmp_path / "data"), "--model", "chance-frequency",
            "-o", "subset=tiny", "--out", str(tmp_path / "run"), "--no-progress"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "1 items: 0 already answered, 1 answered now" in result.output
    line = "tiny_ids.txt:2: field 'id': VSI-Bench (tiny) id 9 is not in the annotations; skipped"
    assert line in result.output
    assert json.loads((tmp_path / "run" / "config.json").read_text())["config"]["data"]["options"] == {
        "subset": "tiny"}
