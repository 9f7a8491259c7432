"""Real lmms-eval ``--log_samples`` logs (../shared/data/lmms_eval, unedited 0.6.1 and 0.7.3 output).

The logs have no ``doc`` (the item, with its ``id``, is under each metric key), no ``resps`` where it
equals ``filtered_resps``, and ``filtered_resps`` as a one-element list (0.6.1) or a string (0.7.3).
Expected figures: lmms-eval's own results files beside the logs.
"""

import json

import pytest

from spatialbench.benchmarks.vsibench import SPEC, load_vsibench
from spatialbench.cli.main import app
from spatialbench.scoring.predictions import read_predictions
from spatialbench.scoring.scorer import score_items
from support.shared_data import require_file

NA_TASKS = ("object_counting", "object_abs_distance", "object_size_estimation", "room_size_estimation")
MC_TASKS = ("object_rel_distance", "object_rel_direction", "route_planning", "obj_appearance_order")
# 0.7.3 reads a number out of a sentence (and a unit-suffixed token); the official rule (float() of the
# first space-separated token, what 0.6.1 does) reads none of these: the only items scored differently.
READ_ONLY_BY_073 = {
    "0": "I think there are 3 windows.", "14": "0.2m", "17": "About 1.7 meters",
    "30": "About 169 cm", "35": "Approximately 27.7 square meters.",
}


def _paths(shared_data, version):
    root = shared_data / "lmms_eval"
    return (require_file(root / "demo_seed3_annotations.jsonl"),
            require_file(root / f"lmms_eval_{version}_samples_vsibench.jsonl"),
            json.loads(require_file(root / f"lmms_eval_{version}_results.json").read_text())["results"])


def _score(shared_data, version, extract="official"):
    annotations, log, results = _paths(shared_data, version)
    items = load_vsibench(annotations)
    read = read_predictions(log, items)
    assert read.format == "lmms-eval" and read.errors == [] and len(read.responses) == len(items) == 66
    return score_items(items, read.responses, SPEC.scoring, extract=extract), log, results


def _logged_scores(log, metric_key):
    scores = {}
    for line in log.read_text().splitlines():
        item = json.loads(line)[metric_key]
        scores[str(item["id"])] = item.get("MRA:.5:.95:.05", item.get("accuracy"))
    return scores


def test_061_official_mode_equals_lmms_eval(shared_data):
    result, log, results = _score(shared_data, "0.6.1")
    theirs = results["vsibench_local"]["vsibench_score,none"]
    assert result.table.average / 100 == pytest.approx(theirs["overall"], abs=1e-6)
    assert theirs["overall"] == pytest.approx(0.6190029761904762, abs=1e-12)
    for task in NA_TASKS + MC_TASKS:
        metric = "MRA:.5:.95:.05" if task in NA_TASKS else "accuracy"
        assert result.table.scores[task] / 100 == pytest.approx(theirs[f"{task}_{metric}"], abs=1e-6)
    # item by item too: the score lmms-eval logged under its metric key
    rows = result.rows.set_index("id")["score"]
    for item_id, score in _logged_scores(log, "vsibench_score").items():
        assert rows[item_id] == pytest.approx(score, abs=1e-12), item_id


def test_073_differs_from_official_mode_only_where_it_reads_numbers_from_sentences(shared_data):
    result, log, results = _score(shared_data, "0.7.3")
    theirs = results["vsibench_local"]
    assert result.table.average == pytest.approx(63.51488095238095, abs=1e-9)  # ours, official mode
    assert theirs["vsibench_overall,none"] == pytest.approx(0.744673, abs=1e-9)
    rows = result.rows.set_index("id")
    logged = _logged_scores(log, "vsibench_overall")
    differ = {i for i, s in logged.items() if abs(rows.loc[i, "score"] - s) > 1e-12}
    assert differ == set(READ_ONLY_BY_073)
    for item_id, text in READ_ONLY_BY_073.items():
        assert rows.loc[item_id, "prediction"] == text and not rows.loc[item_id, "answered"]
        assert logged[item_id] == 1.0  # each is the right number, in a sentence or with a unit
    # with lmms-eval 0.7.3's item scores on those five items, our aggregation gives its figures exactly
    rows.loc[list(differ), "score"] = [logged[i] for i in differ]
    table = SPEC.scoring.table(rows.reset_index())
    assert table.average / 100 == pytest.approx(theirs["vsibench_overall,none"], abs=1e-6)
    for task in NA_TASKS + MC_TASKS:
        metric = "mra" if task in NA_TASKS else "accuracy"
        assert table.scores[task] / 100 == pytest.approx(theirs[f"{task}_{metric},none"], abs=1e-6)


def test_073_filtered_resps_is_read_and_its_think_filter_is_visible_in_resps(shared_data):
    # 0.7.3 strips <think> blocks before process_results: filtered_resps "219", resps the raw answer
    result, log, _ = _score(shared_data, "0.7.3")
    raw = {str(r["doc_id"]): r for r in map(json.loads, log.read_text().splitlines())}
    assert raw["20"]["resps"] == "<think>Comparing with the door height.</think> 219"  # a string too
    assert result.rows.set_index("id").loc["20", "prediction"] == "219"
    old, _, _ = _score(shared_data, "0.6.1")
    raw_answer = "<think>Comparing with the door height.</think> 219"
    assert old.rows.set_index("id").loc["20", "prediction"] == raw_answer


def test_robust_mode_reads_every_answer_of_both_logs_alike(shared_data):
    new, _, _ = _score(shared_data, "0.7.3", "robust")
    old, _, _ = _score(shared_data, "0.6.1", "robust")
    assert new.no_answer == old.no_answer == 0
    assert new.table.average == pytest.approx(old.table.average, abs=1e-12)
    assert (new.rows.set_index("id").loc[list(READ_ONLY_BY_073), "score"] == 1.0).all()


def test_cli_scores_the_061_log(shared_data, tmp_path):
    from typer.testing import CliRunner

    annotations, log, _ = _paths(shared_data, "0.6.1")
    out = tmp_path / "o"
    args = ["score", "-a", str(annotations), "-p", str(log), "--extract", "official", "-o", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    scores = json.loads((out / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(61.90029761904762, abs=1e-9)
    assert scores["skipped_rows"]["count"] == 0


def test_the_073_filter_changes_are_reported(shared_data):
    annotations, new_log, _ = _paths(shared_data, "0.7.3")
    items = load_vsibench(annotations)
    warnings = read_predictions(new_log, items).warnings
    assert warnings == [f"lmms-eval's filters changed 2 response(s) (filtered_resps differs from resps, e.g. "
                        f"{new_log}:21); the filtered text is scored, as lmms-eval scores it"]
    assert read_predictions(_paths(shared_data, "0.6.1")[1], items).warnings == []

