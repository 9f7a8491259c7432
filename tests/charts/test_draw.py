"""Charts a reader can read: every text at least 9 pt at the saved size, no two texts over each other
(matplotlib's own text boxes, measured by tests/support/text_boxes.py), value labels beyond error-bar caps,
no chance mark through a value label."""

from __future__ import annotations

import numpy as np
import pytest

from spatialbench import charts
from spatialbench.benchmarks.mmsi_video.breakdown import SUBTYPES
from support.text_boxes import capture, line_boxes, overlaps, struck

MMSI_COLUMNS = [label for _, label in SUBTYPES] + ["Avg."]


def test_thirteen_subtypes_of_three_runs_are_horizontal_readable_and_apart(tmp_path, monkeypatch) -> None:
    # MMSI-Video-Bench Table 2 (13 subtypes + Avg.) for three runs: O4-mini, O3, GPT-4o (Uniform-50 rows)
    o4 = [36.1, 34.2, 36.4, 33.3, 39.2, 42.5, 37.6, 32.2, 37.0, 32.4, 30.0, 28.2, 28.1, 34.2]
    o3 = [34.9, 34.2, 40.3, 36.2, 40.5, 43.8, 37.6, 37.8, 35.8, 41.2, 25.7, 41.1, 26.8, 37.0]
    gpt = [26.5, 26.3, 31.2, 26.1, 38.0, 38.8, 36.6, 35.6, 27.2, 30.4, 28.6, 33.1, 29.3, 31.6]
    random = [24.1, 23.7, 24.4, 24.4, 24.2, 24.3, 24.1, 24.9, 24.8, 23.1, 23.2, 24.8, 24.4, 24.1]
    with capture(monkeypatch) as drawn:
        rows = [("O4-mini", o4), ("O3", o3), ("GPT-4o", gpt)]
        chance = [("random guess", random)]
        charts.grouped_bars(
            MMSI_COLUMNS, rows, chance, "MMSI-Video-Bench subtypes (Table 2)", tmp_path / "t2"
        )
    chart = drawn["t2"]
    axes = chart.figure.axes[0]
    assert [t.get_text() for t in axes.get_yticklabels()] == MMSI_COLUMNS  # one band per subtype, top down
    values = [t.text for t in chart.labels if t.text[:1].isdigit() and "." in t.text]
    assert "36.1" in values and "43.8" in values and "24.1" not in values  # bars labelled, chance not
    assert min(t.points for t in chart.labels) >= 9
    assert overlaps(chart.labels) == []
    width, height = chart.figure.get_size_inches()
    assert width == pytest.approx(7.5)  # fits a report page at its saved size (1125 px at 150 dpi)


def test_upright_labels_of_eight_tasks_do_not_touch(tmp_path, monkeypatch) -> None:
    rows = [
        ("run a", [33.3, 33.3, 100.0, 0.0, 48.6, 48.0, 12.5, 99.9]),
        ("run b", [33.3, 33.4, 100.0, 0.1, 48.0, 48.6, 12.5, 100.0]),
    ]
    with capture(monkeypatch) as drawn:
        columns = [f"task {k}" for k in range(8)]
        charts.grouped_bars(columns, rows, [("chance", [25.0] * 8)], "t", tmp_path / "v")
    chart = drawn["v"]
    assert min(t.points for t in chart.labels) >= 9
    assert overlaps(chart.labels) == []
    assert {"33.3", "33.4", "100.0", "0.0", "48.6", "48.0"} <= {t.text for t in chart.labels}


def test_difference_labels_sit_beyond_the_error_bar_caps(tmp_path, monkeypatch) -> None:
    # compare's difference figure: +27.1 [20.0, 34.2] and -8.0 [-15.5, -0.5]
    with capture(monkeypatch) as drawn:
        charts.grouped_bars(
            ["Obj. Count", "Rel. Dist."],
            [("b - a", [27.1, -8.0])],
            [],
            "differences",
            tmp_path / "d",
            ylabel="difference (points)",
            scale=0,
            intervals=[[(20.0, 34.2), (-15.5, -0.5)]],
        )
    chart = drawn["d"]
    axes = chart.figure.axes[0]
    up = next(t for t in chart.labels if t.text == "27.1")
    down = next(t for t in chart.labels if t.text == "-8.0")
    cap_top = axes.transData.transform((0.0, 34.2))[1]
    cap_bottom = axes.transData.transform((1.0, -15.5))[1]
    assert up.box[1] >= cap_top  # the label starts above the upper cap
    assert down.box[3] <= cap_bottom  # and below the lower cap
    assert overlaps(chart.labels) == []


def test_cognitive_map_of_twenty_categories_names_each_once_without_overlap(tmp_path, monkeypatch) -> None:
    rng = np.random.default_rng(0)
    names = [f"category {k}" for k in range(20)]
    # several categories share cells (where labels at the points printed over each other)
    truth = {n: rng.integers(0, 3, size=(2, 2)).astype(float) for n in names}
    predicted = {n: rng.integers(0, 3, size=(1, 2)).astype(float) for n in names}
    with capture(monkeypatch) as drawn:
        charts.map_pair(predicted, truth, 10, "scene0316: predicted vs ground truth", tmp_path / "m")
    chart = drawn["m"]
    texts = [t.text for t in chart.labels]
    assert all(texts.count(n) == 1 for n in names)  # in the legend, not at the points
    # markers sharing a cell are spread around it: no two drawn on the same spot, none leaves its cell
    drawn_at = np.concatenate([c.get_offsets() for c in chart.figure.axes[1].collections])
    assert len({(round(x, 6), round(y, 6)) for x, y in drawn_at}) == len(drawn_at) == 40
    cells = np.concatenate([truth[n] for n in names])
    assert np.abs(np.sort(drawn_at, axis=0) - np.sort(cells, axis=0)).max() <= 0.25 + 1e-9
    assert min(t.points for t in chart.labels) >= 9
    assert overlaps(chart.labels) == []


def test_official_task_names_wrap_under_their_columns(tmp_path, monkeypatch) -> None:
    # the stress test draws the official task names (one token each) under 2 bars per column
    names = ["object_counting", "object_abs_distance", "object_size_estimation", "room_size_estimation",
             "object_rel_distance", "object_rel_direction_hard", "route_planning", "obj_appearance_order"]
    with capture(monkeypatch) as drawn:
        charts.grouped_bars(names, [("random folds", [50.0] * 8), ("by scene", [40.0] * 8)],
                            [("chance", [25.0] * 8)], "TsT-RF", tmp_path / "s")
    chart = drawn["s"]
    ticks = [t.get_text() for t in chart.figure.axes[0].get_xticklabels()]
    assert ticks[0] == "object_\ncounting" and ticks[5] == "object_\nrel_\ndirection_\nhard"
    assert overlaps(chart.labels) == []


def test_an_interval_that_misses_its_value_is_drawn_as_it_is(tmp_path, monkeypatch) -> None:
    # a compare of the 3-scene demo (scene-clustered percentile bootstrap, bounds rounded to 4 decimals)
    # gave Obj. Count +0.0 with [0.00004, 8.3]: the error bar once raised "'yerr' must not contain
    # negative values" and the whole comparison was "not drawn" in the report
    with capture(monkeypatch) as drawn:
        charts.grouped_bars(["Obj. Count", "Route Plan"], [("vision − blind", [0.0, -5.0])], [], "d",
                            tmp_path / "d", scale=0, intervals=[[(0.00004, 8.3), (-9.0, -6.0)]])
    bars = [c for c in drawn["d"].figure.axes[0].collections if len(c.get_segments())]
    spans = sorted(tuple(np.round(sorted(s[:, 1]), 4)) for c in bars for s in c.get_segments())
    assert spans == [(-9.0, -6.0), (0.0, 8.3)]  # each interval from its low to its high end


@pytest.mark.parametrize("columns", [["Obj. Count", "Rel. Dist."], MMSI_COLUMNS],
                         ids=["upright", "horizontal"])
def test_chance_marks_strike_no_value_label(tmp_path, monkeypatch, columns) -> None:
    # a bar of 24.0 just under a 25.0 chance: a chance line across the column ran through "24.0" above it;
    # 26.0 just over it, 0.0 (a label at the axis) and a second chance row at 30.0, over "28.0"
    n = len(columns)
    rows = [("run a", [24.0, 26.0] * (n // 2)), ("run b", [0.0, 28.0] * (n // 2))]
    chance = [("random", [25.0] * n), ("frequency", [30.0, 27.0] * (n // 2))]
    with capture(monkeypatch) as drawn:
        charts.grouped_bars(columns, rows, chance, "chance beside the values", tmp_path / "c")
    chart = drawn["c"]
    values = [t for t in chart.labels if t.text in {"24.0", "26.0", "0.0", "28.0"}]
    assert len(values) == 2 * n
    for name, _ in chance:
        marks = line_boxes(chart.figure, name)
        assert len(marks) >= n  # a tick for every column at least
        assert struck(values, marks) == []
    assert overlaps(chart.labels) == []


def test_chance_is_a_tick_before_each_column_and_a_dash_across_the_bars_reaching_it(tmp_path,
                                                                                      monkeypatch) -> None:
    with capture(monkeypatch) as drawn:
        charts.grouped_bars(["a", "b"], [("run", [24.0, 26.0])], [("random", [25.0, 25.0])], "t",
                            tmp_path / "t")
    axes = drawn["t"].figure.axes[0]
    segments = sorted(tuple(np.round(s[:, 0], 2)) + (s[0, 1],) for c in axes.collections
                      if c.get_label().lstrip("_") == "random" for s in c.get_segments())
    # bars span x ± 0.35 (one bar per column): the ticks at -0.49..-0.36 and 0.51..0.64, a dash over "b" only
    assert segments == [(-0.49, -0.36, 25.0), (0.51, 0.64, 25.0), (0.65, 1.35, 25.0)]
    assert [t.get_text() for t in axes.get_legend().get_texts()] == ["random", "run"]  # one entry each

VSI_TASKS = ["Obj. Count", "Abs. Dist.", "Obj. Size", "Room Size", "Rel. Dist.", "Rel. Dir.", "Route Plan",
             "Appr. Order"]  # VSI-Bench Table 1
REMINDVIEW_TASKS = ["V–V", "V–O", "O–O", "Dir.", "Dis."]  # ReMindView-Bench Table 1


@pytest.mark.parametrize("runs", [1, 2, 3])
@pytest.mark.parametrize("names", [MMSI_COLUMNS, VSI_TASKS, REMINDVIEW_TASKS],
                         ids=["mmsi", "vsi", "remindview"])
def test_task_names_over_their_n_never_touch(tmp_path, monkeypatch, names, runs) -> None:
    # the report's task figure labels each column with its n; one MMSI run (14 columns upright) ran
    # "Cam.-Scen." into "Cam." and the line break before n=25 was lost ("Appr. Order n=3" on one line)
    columns = [f"{name}\nn={25 + k}" for k, name in enumerate(names)]
    rows = [(f"run {r}", [30.0 + r] * len(names)) for r in range(runs)]
    with capture(monkeypatch) as drawn:
        charts.grouped_bars(columns, rows, [("random", [25.0] * len(names))], "per task", tmp_path / "k")
    chart = drawn["k"]
    axes = chart.figure.axes[0]
    across = axes.get_yticklabels() if names is MMSI_COLUMNS else axes.get_xticklabels()  # MMSI: horizontal
    ticks = [t.get_text() for t in across]
    assert [t.split("\n")[-1] for t in ticks] == [f"n={25 + k}" for k in range(len(names))]
    tick_labels = [t for t in chart.labels if t.text in ticks]
    assert len(tick_labels) == len(names)
    assert overlaps(tick_labels) == [] and overlaps(chart.labels) == []
    assert min(t.points for t in chart.labels) >= 9
