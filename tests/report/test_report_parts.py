"""Report parts without runs: the Fig. 13 gap order, LaTeX escaping, item page names, SVG stability."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from spatialbench.charts import grouped_bars
from spatialbench.report import load_run
from spatialbench.report.figures import gap_bars
from spatialbench.report.items import page_name
from spatialbench.runs import RunConfig
from spatialbench.runs.checks import RunFolderError
from spatialbench.scoring.render import Grid, to_latex


def test_gap_bars_sort_tasks_by_enabled_minus_disabled(tmp_path: Path) -> None:
    # enabled - disabled = 10, 30, -5, NaN (no blind score): Fig. 13 sorts descending, NaN last
    paths, order = gap_bars(["a", "b", "c", "d"], [50.0, 60.0, 20.0, 40.0], [40.0, 30.0, 25.0, None],
                            [30.0, 30.0, 30.0, 30.0], "t", tmp_path / "gap")
    assert order == ["b", "a", "c", "d"]
    assert [p.name for p in paths] == ["gap.png", "gap.svg"]


def test_same_figure_same_svg_bytes(tmp_path: Path) -> None:
    for name in ("one", "two"):
        grouped_bars(["x", "y"], [("run", [10.0, None])], [("chance", [25.0, 25.0])], "t", tmp_path / name)
    assert (tmp_path / "one.svg").read_bytes() == (tmp_path / "two.svg").read_bytes()


def test_latex_escapes_and_section_rows() -> None:
    grid = Grid(("Avg.", "A_B"), (("Models", ("", "")), ("r&d 100%", (12.345, math.nan))))
    tex = to_latex(grid, corner="Method").splitlines()
    assert tex[2] == r"Method & Avg. & A\_B \\"
    assert tex[4] == r"\multicolumn{3}{l}{\textit{Models}} \\"
    assert tex[5] == r"r\&d 100\% & 12.3 & - \\"


def test_page_names_are_safe_and_distinct() -> None:
    assert page_name("42") == "42.html"
    odd = [page_name("../x"), page_name("..%2fx"), page_name("a/b"), page_name("a_b")]
    assert all("/" not in n and not n.startswith(".") for n in odd)
    assert len(set(odd)) == 4 and odd[3] == "a_b.html"


def test_item_rows_of_an_item_a_run_did_not_select() -> None:
    # a run with --limit covers fewer items than the others: its cell is "-", not a template error
    from spatialbench.records.item import AnswerKind, Item
    from spatialbench.report.items import ItemView, RunAnswer
    from spatialbench.report.pages import render

    item = Item(id="7", benchmark="vsibench", task="object_counting", question="How many?", ground_truth="2",
                answer_kind=AnswerKind.NUMERICAL)
    answer = RunAnswer("full", "model", "ok", "2", 2.0, "robust:plain_number", 1.0, [], False)
    views = [ItemView(item, "7.html", [answer])]
    html = render("item_rows.html.j2", views=views, run_labels=["full", "limited"], prefix="items/")
    assert "<td>100</td><td>-</td>" in html


def test_model_output_is_escaped_on_item_pages() -> None:
    from spatialbench.records.item import AnswerKind, Item
    from spatialbench.report.items import ItemView, RunAnswer
    from spatialbench.report.pages import render

    item = Item(id="9", benchmark="vsibench", task="object_rel_distance", question="Which <b>one</b>?",
                options=("A. sofa", "B. bed"), ground_truth="A", answer_kind=AnswerKind.MULTIPLE_CHOICE)
    response = "<script>alert(1)</script> A"
    answer = RunAnswer("m", "model", "ok", response, "A", "robust:letter", 1.0, [], False)
    html = render("item.html.j2", title="Item 9", v=ItemView(item, "9.html", [answer]))
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; A" in html
    assert "Which &lt;b&gt;one&lt;/b&gt;?" in html


def _config(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    config = RunConfig.model_validate({"data": {"benchmark": "vsibench", "path": str(folder / "data")},
                                       "model": {"name": "chance-random"}, "out": str(folder)})
    (folder / "config.json").write_text(json.dumps({"config": config.model_dump(mode="json")}))


def test_unreadable_run_folders_are_one_error_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(RunFolderError, match="not a run folder \\(no config.json\\)"):
        load_run(tmp_path / "empty")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text("{oops")
    with pytest.raises(RunFolderError, match=f"{broken / 'config.json'}: not a run configuration"):
        load_run(broken)
    no_store = tmp_path / "no-store"
    _config(no_store)
    with pytest.raises(RunFolderError, match="no run.sqlite in"):
        load_run(no_store)
    (no_store / "run.sqlite").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(RunFolderError, match="run.sqlite: not a readable run store"):
        load_run(no_store)


def test_bar_labels_stand_beyond_their_error_bars(tmp_path: Path, monkeypatch) -> None:
    # the compare difference figure's labels sat on the bars' ends, struck by the error bars (issue 21)
    from spatialbench.charts import draw

    figures = []
    monkeypatch.setattr(draw, "save", lambda figure, stem: figures.append(figure) or [])
    rows = [("a − b", [27.1, -64.3, 10.0]), ("b − c", [5.0, -1.0, None])]
    intervals = [[(10.0, 45.0), (-100.0, -17.0), None], [(-20.0, 30.0), (-15.0, 16.0), None]]
    grouped_bars(["x", "y", "z"], rows, [], "differences", tmp_path / "d", ylabel="points", scale=0.0,
                 intervals=intervals)
    (figure,) = figures
    figure.canvas.draw()
    axes = figure.axes[0]
    to_display = axes.transData.transform
    labelled = 0
    for text in axes.texts:
        x, _ = text.xy
        box = text.get_window_extent()
        for k, row in enumerate(intervals):
            for j, ci in enumerate(row):
                centre = j - 0.4 + 0.4 * (k + 0.5)
                if ci is None or abs(centre - x) > 1e-9:
                    continue
                low, high = (to_display((centre, v))[1] for v in ci)
                assert box.y0 >= high or box.y1 <= low, (text.get_text(), ci)  # clear of line and caps
                labelled += 1
    assert labelled == 4 and sorted(t.get_text() for t in axes.texts) == sorted(
        ["27.1", "-64.3", "10.0", "5.0", "-1.0"])
    # above the upper cap for a bar of 0 or more, below the lower cap for a negative one
    anchors = {t.get_text(): t.xy[1] for t in axes.texts}
    assert anchors["27.1"] == 45.0 and anchors["-64.3"] == -100.0 and anchors["5.0"] == 30.0
    assert anchors["-1.0"] == -15.0 and anchors["10.0"] == 10.0


def test_an_interval_that_misses_its_bar_value_is_drawn_as_it_is(tmp_path: Path, monkeypatch) -> None:
    # a percentile bootstrap interval need not contain the observed difference: matplotlib refused the
    # negative error length ("'yerr' must not contain negative values") and the report dropped the figure
    from spatialbench.charts import draw

    figures = []
    monkeypatch.setattr(draw, "save", lambda figure, stem: figures.append(figure) or [])
    grouped_bars(["x"], [("a − b", [5.0])], [], "d", tmp_path / "d", scale=0.0, intervals=[[(6.0, 9.0)]])
    (figure,) = figures
    axes = figure.axes[0]
    (bar,) = [c for c in axes.containers if hasattr(c, "lines") and c.lines[2]]
    segment = bar.lines[2][0].get_segments()[0]
    assert [float(y) for _, y in segment] == [6.0, 9.0]  # the interval as computed, not around the value
    assert axes.texts[0].xy[1] == 9.0  # the label above it
