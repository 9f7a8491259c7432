"""Loading ReMindView-Bench QA tables (CSV and Parquet): classification, lettered choices, malformed rows."""

import pandas as pd
import pytest
from mmsi_remindview_fixtures import build_remindview

from spatialbench.benchmarks import load_items
from spatialbench.benchmarks.remindview import load_remindview
from spatialbench.benchmarks.remindview.query import parse_query_type
from spatialbench.records.item import MediaKind


@pytest.fixture()
def data_dir(tmp_path):
    return build_remindview(tmp_path / "rmv")


def test_loads_csv_and_parquet_tables(data_dir):
    loaded = load_items("remindview", data_dir)
    assert loaded.errors == []
    assert [i.id for i in loaded] == [f"object_centric_qa:{k}" for k in range(7)] + [
        f"view_centric_qa:{k}" for k in range(4)
    ]


def test_choices_are_lettered_and_the_truth_becomes_a_letter(data_dir):
    item = load_remindview(data_dir)[1]
    assert item.options == ("A. go opposite", "B. go left and go forward", "C. go right and go forward")
    assert item.ground_truth == "B" and item.metadata["answer_text"] == "go left and go forward"


def test_classification_of_each_row(data_dir):
    meta = [i.metadata for i in load_remindview(data_dir)]
    keys = ("pattern", "relation", "query_kind", "perspective", "cross_frame", "object_num", "distance_level")
    rows = [tuple(m[k] for k in keys) for m in meta]
    assert rows == [
        ("object-centric", "view-view", "relative_distance", None, True, 5, 2),
        ("object-centric", "view-view", "relative_direction", None, True, 5, 2),
        ("object-centric", "view-object", "relative_distance", "SP", False, 5, 2),
        ("object-centric", "view-object", "relative_direction", "PC", True, 7, 4),
        ("object-centric", "object-object", "relative_distance", "SP", False, 7, 4),
        (
            "object-centric",
            "object-object",
            "relative_direction",
            "PC",
            True,
            3,
            4,
        ),  # derived: "positioned at"
        ("object-centric", "object-object", "relative_direction", "SP", False, 3, 2),  # derived: frame view
        ("view-centric", "view-object", "relative_direction", "SP", True, 4, 5),
        ("view-centric", "view-object", "relative_distance", "PC", True, 4, 5),
        ("view-centric", "object-object", "relative_direction", "SP", False, 6, 1),
        ("view-centric", "object-object", "relative_distance", "SP", False, 6, 1),
    ]
    assert meta[0]["room_type"] == "Bedroom" and meta[7]["room_type"] == "Kitchen"


def test_frames_in_natural_order_with_names(data_dir):
    item = load_remindview(data_dir)[3]  # level_4 holds frame0, frame1, frame2, frame10
    assert [m.name for m in item.media] == ["frame0", "frame1", "frame2", "frame10"]
    assert all(m.kind is MediaKind.IMAGE for m in item.media)


@pytest.mark.parametrize(
    ("query_type", "query", "perspective"),
    [
        (
            "view-object|relative_distance|1",
            "If you are positioned where bed is, which object is the closest to you?",
            "PC",
        ),
        (
            "view-object|relative_direction|3",
            "If you turn left from the view of sofa, which object is in the front of you?",
            "PC",
        ),
        (
            "object-object|relative_direction|3",
            "After turning right from desk, what is the spatial relationship of a to b?",
            "PC",
        ),
        ("object-object|relative_distance|0", "Which object is the closest to lamp?", "SP"),
        (
            "view-object|relative_direction|0",
            "From the perspective of frame1, what is the direction of lamp relative to you?",
            "SP",
        ),
        (
            "view-view|relative_direction|1",
            "Which frame is taken at the position left of the taken position of frame0?",
            None,
        ),
    ],
)
def test_perspective_derived_from_the_template(query_type, query, perspective):
    assert parse_query_type(query_type, query).perspective == perspective


def test_malformed_rows_are_reported_and_the_rest_loads(data_dir):
    table = data_dir / "object_centric_qa.csv"
    frame = pd.read_csv(table, dtype=str, keep_default_na=False)
    bad = frame.iloc[[0, 0, 0, 0]].copy()
    bad.iloc[0, bad.columns.get_loc("folder_path")] = "../elsewhere/Bedroom/object_centric/x/level_9"
    bad.iloc[1, bad.columns.get_loc("ground_truth")] = "frame7"
    bad.iloc[2, bad.columns.get_loc("query_type")] = "view-scene|relative_distance|1"
    bad.iloc[3, bad.columns.get_loc("object_num")] = "many"
    pd.concat([frame, bad]).to_csv(table, index=False)
    loaded = load_remindview(data_dir)
    assert len(loaded) == 11
    assert [(e.line, e.field) for e in loaded.errors] == [
        (9, "folder_path"),
        (10, "ground_truth"),
        (11, "query_type"),
        (12, "object_num"),
    ]
    assert (
        f"sample 'object_centric_qa:7': path '../elsewhere/Bedroom/object_centric/x/level_9' is absolute or "
        f"leaves the data folder {data_dir.resolve()}"
    ) in str(loaded.errors[0])
    assert "'frame7' is not exactly one of the choices" in str(loaded.errors[1])
    assert str(loaded.errors[0]).startswith(f"{table}:9: field 'folder_path'")


def test_table_without_required_column(tmp_path):
    pd.DataFrame({"folder_path": ["x"], "query": ["q"]}).to_csv(tmp_path / "qa.csv", index=False)
    with pytest.raises(ValueError, match=r"qa.csv: missing columns \['query_type', 'ground_truth'"):
        load_remindview(tmp_path)


def test_absolute_folder_path_is_a_row_error_and_a_missing_folder_is_not(data_dir):
    """A path outside the data folder is never read; a missing frame folder only matters to a run."""
    table = data_dir / "object_centric_qa.csv"
    frame = pd.read_csv(table, dtype=str, keep_default_na=False)
    extra = frame.iloc[[0, 0]].copy()
    column = extra.columns.get_loc("folder_path")
    extra.iloc[0, column] = str(data_dir.resolve() / frame.iloc[0]["folder_path"])
    extra.iloc[1, column] = "frames/sparse_indoors/Bedroom/object_centric/x/level_9"
    pd.concat([frame, extra]).to_csv(table, index=False)
    loaded = load_remindview(data_dir)
    assert [(e.line, e.field) for e in loaded.errors] == [(9, "folder_path")]
    assert "is absolute or leaves the data folder" in str(loaded.errors[0])
    (missing,) = [i for i in loaded if i.metadata["folder_path"].endswith("/x/level_9")]
    assert missing.metadata["distance_level"] == 9 and len(missing.media) == 1
    assert missing.media[0].kind is MediaKind.FRAMES and missing.media[0].frames == ()
