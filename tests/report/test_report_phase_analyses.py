"""The ReMindView-Bench phase analyses in the report, from documents shaped as the analysis modules write
them (tables built by their own functions where those are pure)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from spatialbench.analysis.consistency import TABLE_3, consistency_table
from spatialbench.analysis.judge.agreement import TABLE_2, phase_table
from spatialbench.report.analyses import draw_document


def _drawn(path: Path) -> None:
    with Image.open(path) as image:
        assert image.width > 400


def test_judge_table_2_bars_and_paper_rows(tmp_path: Path) -> None:
    means = {"a": {1: 80.0, 2: 60.0, 3: 40.0}, "b": {1: 60.0, 2: 20.0, 3: None}}
    doc = {
        "analysis": "judge",
        "version": 1,
        "judges": ["j1", "j2"],
        "table": phase_table(means, {"a": True, "b": False}),
        "reference": {"table": "ReMindView-Bench Table 2", "rows": TABLE_2},
    }
    drawn = draw_document(tmp_path, doc, "judge")
    assert drawn is not None and drawn.title == "Judged reasoning phases"
    grid = drawn.grids[0]
    assert grid.rows[0] == ("this run: correct", (80.0, 60.0, 40.0))
    assert grid.rows[1] == ("this run: incorrect", (60.0, 20.0, None))  # item b has no phase (3) score
    assert ("Qwen2.5-VL-7B (Table 2): correct", (76.1, 58.2, 36.3)) in grid.rows
    _drawn(tmp_path / "figures" / "judge" / "judge.png")


def test_consistency_table_3_percentages(tmp_path: Path) -> None:
    labels = {"1": "consistent", "2": "inconsistent", "3": "consistent", "4": None}
    correct = {"1": True, "2": True, "3": False, "4": False}
    doc = {
        "analysis": "consistency",
        "version": 1,
        "table": consistency_table(labels, correct),
        "reference": {"columns": ["correct", "incorrect", "all"], "rows": TABLE_3},
    }
    drawn = draw_document(tmp_path, doc, "consistency")
    assert drawn is not None
    # correct: 1 of 2 consistent; incorrect: 1 of 1 labelled; all: 2 of 3
    assert drawn.grids[0].rows[0] == ("this run", (50.0, 100.0, 200 / 3))
    assert drawn.grids[0].rows[1] == ("items", (2, 1, 3))


def test_entropy_bars_and_curves(tmp_path: Path) -> None:
    def cell(mean: float) -> dict:
        variance = mean / 10  # Fig. 9 shows the variance beside the mean
        curve = [mean - 0.1, mean + 0.1]
        return {"tokens": 10, "items": 2, "mean": mean, "variance": variance, "curve": curve}

    phases = {
        g: {str(k): cell(k * (1.0 if g == "correct" else 1.5)) for k in (1, 2, 3, 4)}
        for g in ("correct", "incorrect", "all")
    }
    doc = {"analysis": "entropy", "version": 1, "unit": "nats", "bins": 2, "phases": phases}
    drawn = draw_document(tmp_path, doc, "entropy")
    assert drawn is not None and len(drawn.figures) == 3
    rows = dict(drawn.grids[0].rows)
    assert rows["correct mean"] == (1.0, 2.0, 3.0, 4.0) and rows["incorrect mean"] == (1.5, 3.0, 4.5, 6.0)
    assert rows["correct variance"] == pytest.approx((0.1, 0.2, 0.3, 0.4))
    assert rows["incorrect variance"] == pytest.approx((0.15, 0.3, 0.45, 0.6))
    _drawn(tmp_path / "figures" / "entropy" / "entropy-variance.png")
    _drawn(tmp_path / "figures" / "entropy" / "entropy-curve.png")


def test_probe_cross_entropy_per_phase_beside_accuracy_with_chance(tmp_path: Path) -> None:
    soft = {
        k: {
            "all": {"items": 10, "cross_entropy": 0.2 * k},
            "correct": {"items": 6, "cross_entropy": 0.1 * k},
            "incorrect": {"items": 4, "cross_entropy": 0.3 * k},
        }
        for k in (1, 2, 3, 4)
    }
    phases = {
        str(k): {
            "train": 30,
            "test": 10,
            "chance": 0.4,
            "all": {"items": 10, "accuracy": 0.5 + k / 10},
            "correct": {"items": 6, "accuracy": 0.6},
            "incorrect": {"items": 4, "accuracy": None},
            "answer_logits": soft[k],
        }
        for k in (1, 2, 3, 4)
    }
    doc = {"analysis": "probe", "version": 2, "probe": "mlp", "features": "logits", "phases": phases}
    drawn = draw_document(tmp_path, doc, "probe")
    assert drawn is not None and drawn.title == "Probe: mlp"
    ce = dict(drawn.grids[0].rows)  # Fig. 8: CE against the answer logits, first
    assert ce["all"] == pytest.approx((0.2, 0.4, 0.6, 0.8)) and ce["incorrect"] == pytest.approx(
        (0.3, 0.6, 0.9, 1.2)
    )
    rows = dict(drawn.grids[1].rows)
    assert rows["all"] == (0.6, 0.7, 0.8, 0.9) and rows["chance (majority class)"] == (0.4,) * 4
    assert rows["incorrect"] == (None,) * 4
    _drawn(tmp_path / "figures" / "probe" / "probe-ce.png")
    _drawn(tmp_path / "figures" / "probe" / "probe.png")


def test_other_documents_are_not_drawn(tmp_path: Path) -> None:
    assert draw_document(tmp_path, {"analysis": "judge", "version": 2, "table": {}}, "x") is None
    assert draw_document(tmp_path, {"schema": "spatialbench.error-annotations", "version": 1}, "y") is None


def test_probe_section_states_its_set_up_and_phases_are_categorical(tmp_path: Path, monkeypatch) -> None:
    # issue 21 newcomer check: the CE figure's x-axis ran 1.0, 1.5, ... 4.0, and the report did not say the
    # MLP depth, the logit columns kept or the train / test item counts
    from spatialbench import charts
    from support.text_boxes import capture

    phases = {str(k): {"train": 30, "test": 10, "chance": 0.4, "all": {"items": 10, "accuracy": 0.5},
                       "correct": {"items": 6, "accuracy": 0.6}, "incorrect": {"items": 4, "accuracy": 0.2},
                       "answer_logits": {"all": {"items": 10, "cross_entropy": 0.5}}} for k in (1, 2, 3, 4)}
    doc = {"analysis": "probe", "version": 2, "probe": "mlp", "features": "logits", "phases": phases,
           "hidden_layers": [256, 128, 64, 32], "logit_columns": 4096,
           "split": "by scene (GroupShuffleSplit)"}
    with capture(monkeypatch, charts) as drawn_charts:
        drawn = draw_document(tmp_path, doc, "probe")
    assert drawn is not None
    setup = next(g for g in drawn.grids if g.title == "Probe set-up")
    assert dict(setup.rows)["probe"] == ("4-layer MLP: 4 hidden layers (256, 128, 64, 32)",)
    assert dict(setup.rows)["logit columns kept"] == (4096,)
    counts = next(g for g in drawn.grids if g.title == "Items per phase (split by scene)")
    assert counts.header == ("(1)", "(2)", "(3)", "(4)")
    assert dict(counts.rows) == {"train": (30,) * 4, "test": (10,) * 4}
    axes = drawn_charts["probe-ce"].figure.axes[0]
    assert [t.get_text() for t in axes.get_xticklabels()] == ["(1)", "(2)", "(3)", "(4)"]
    assert list(axes.get_xticks()) == [1.0, 2.0, 3.0, 4.0]
