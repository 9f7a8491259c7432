import json
import math
from types import MappingProxyType

import pandas as pd
import pytest

from spatialbench.benchmarks import get_benchmark
from spatialbench.records.item import AnswerKind, Item
from spatialbench.scoring import render_markdown, score_items, write_scores

RULES = get_benchmark("vsibench").scoring


def item(id_, task, gt, options=(), dataset="scannet", **meta):
    kind = AnswerKind.MULTIPLE_CHOICE if options else AnswerKind.NUMERICAL
    return Item(id=id_, benchmark="vsibench", task=task, question="How far (in meters)?", options=options,
                ground_truth=gt, answer_kind=kind, dataset=dataset, scene_id="s", metadata=meta)


AB = ("A. left", "B. right")
ABC = ("A. left", "B. right", "C. back")
ITEMS = [
    item("1", "object_rel_direction_easy", "A", AB),
    item("2", "object_rel_direction_medium", "B", ABC),
    item("3", "object_rel_direction_medium", "C", ABC),
    item("4", "object_rel_direction_hard", "A", ("A. front-left", "B. back-left")),
    item("5", "object_abs_distance", "2", dataset="arkitscenes"),
    item("6", "object_abs_distance", "4", dataset="arkitscenes"),
]
RESPONSES = {"1": "A", "2": "B", "3": "I can't tell", "4": "B", "5": "3", "6": "5"}


def test_rel_direction_is_mean_of_subtypes_and_avg_says_what_it_covers():
    result = score_items(ITEMS, RESPONSES, RULES, extract="robust")
    table = result.table
    # easy 1/1, medium 1/2, hard 0/1 -> (100 + 50 + 0) / 3; abs. dist. MRA (0.1 + 0.6) / 2
    assert table.scores["object_rel_direction"] == pytest.approx(50.0)
    assert table.scores["object_abs_distance"] == pytest.approx(35.0)
    assert table.average == pytest.approx(42.5)
    assert table.averaged_over == ("object_abs_distance", "object_rel_direction")
    assert "object_counting" in table.missing and table.scores["object_counting"] is None
    assert result.no_answer == 1
    text = render_markdown(result)
    assert "extraction: robust · MRA: official (<=)" in text and "Avg. is over 2 of 8 tasks" in text


def test_paper_mra_mode_changes_boundary_cases():
    result = score_items(ITEMS, RESPONSES, RULES, extract="robust", mra="paper")
    assert result.table.scores["object_abs_distance"] == pytest.approx(25.0)  # (0.0 + 0.5) / 2


def test_partial_rel_direction_is_flagged():
    result = score_items(ITEMS[:2], RESPONSES, RULES)
    assert result.table.partial == ("object_rel_direction",)


def test_bad_ground_truth_is_a_data_error_left_out_of_means():
    items = [*ITEMS[4:], item("7", "object_abs_distance", "0"), item("8", "object_abs_distance", "nan")]
    result = score_items(items, {**RESPONSES, "7": "1", "8": "1"}, RULES)
    assert result.data_errors == [
        "item 7: ground truth '0' is not positive (MRA divides by it)",
        "item 8: ground truth 'nan' is not finite",
    ]
    assert result.table.scores["object_abs_distance"] == pytest.approx(35.0)
    assert math.isnan(result.rows.set_index("id").loc["7", "score"])


def test_missing_and_unmatched_predictions_are_counted():
    result = score_items(ITEMS, {"1": "A", "zzz": "B"}, RULES)
    assert len(result.missing_predictions) == 5 and result.unmatched_predictions == ["zzz"]
    assert result.no_answer == 0


def test_per_dataset_and_debiased_tables():
    items = [i.model_copy(update={"metadata": {"pruned": i.id in {"5"}}}) for i in ITEMS]
    result = score_items(items, RESPONSES, RULES)
    assert set(result.by_dataset) == {"arkitscenes", "scannet"}
    assert result.by_dataset["arkitscenes"].scores["object_abs_distance"] == pytest.approx(35.0)
    assert result.debiased is not None
    assert result.debiased.scores["object_abs_distance"] == pytest.approx(60.0)


def test_write_scores_files(tmp_path):
    paths = write_scores(score_items(ITEMS, RESPONSES, RULES, extract="official"), tmp_path)
    scores = json.loads(paths["scores"].read_text())
    assert scores["modes"] == {"extract": "official", "mra": "official"}
    for key in ("overall", "object_counting", "object_abs_distance", "object_size_estimation",
                "room_size_estimation", "object_rel_distance", "object_rel_direction", "route_planning",
                "obj_appearance_order", "object_rel_direction_easy", "object_rel_direction_medium",
                "object_rel_direction_hard"):
        assert key in scores
    assert scores["object_rel_direction_easy"] == 100.0 and scores["no_answer"]["total"] == 1
    rows = pd.read_csv(paths["items"])
    assert list(rows.columns[:5]) == ["id", "task", "prediction", "extracted", "score"]
    assert rows.set_index("id").loc[6, "score"] == pytest.approx(0.6)
    assert "extraction: official" in paths["markdown"].read_text()


def test_rows_carry_option_counts_and_pruned_flags_as_before():
    """Issue 25 item 3: ``n_options`` is built as a numpy column, ``pruned`` by ``dict.get``; same values."""
    items = [item("1", "object_rel_direction_easy", "A", AB, pruned=True),
             item("5", "object_abs_distance", "2")]
    rows = score_items(items, {"1": "A"}, RULES).rows
    assert str(rows["n_options"].dtype) == "int64" and rows["n_options"].tolist() == [2, 0]
    assert rows["pruned"].dtype == object and rows["pruned"].tolist() == [True, None]
    # a metadata mapping that is not a dict (a built-without-validation item) is asked with its own get
    odd = Item.model_construct(**{**dict(ITEMS[0]), "metadata": MappingProxyType({"pruned": False})})
    assert score_items([odd], {}, RULES).rows["pruned"].tolist() == [False]
    assert str(score_items([], {}, RULES).rows["n_options"].dtype) == "float64"  # no rows: as before


def test_one_dataset_has_the_table_of_all_its_rows_and_no_dataset_none():
    scannet = ITEMS[:4]
    result = score_items(scannet, RESPONSES, RULES, extract="robust")
    # the four scannet items: easy 1/1, medium 1/2, hard 0/1 -> Rel. Dir. (100 + 50 + 0) / 3
    assert list(result.by_dataset) == ["scannet"]
    assert result.by_dataset["scannet"].scores["object_rel_direction"] == pytest.approx(50.0)
    assert result.by_dataset["scannet"] == result.table
    assert score_items(scannet + ITEMS[4:5], RESPONSES, RULES).by_dataset["scannet"] == result.table
    unnamed = [item.model_copy(update={"dataset": None}) for item in scannet]
    assert score_items(unnamed, RESPONSES, RULES, extract="robust").by_dataset == {}
