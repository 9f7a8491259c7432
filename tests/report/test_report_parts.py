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
from spatialbench.scoring.render import Grid, to_latex, to_markdown


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
    assert '<td class="s-hi">100.0</td><td>-</td>' in html  # one decimal, coloured


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


def test_best_and_second_best_are_marked_among_model_rows_only() -> None:
    from spatialbench.report.tables import Leaderboard

    board = Leaderboard(
        header=("Avg.", "x", "y", "z"), keys=("x", "y", "z"), groups=("G", "G", ""),
        sections=(("Baseline", (("Chance", None, (99.0, 99.0, 99.0, 99.0)),)),
                  ("Models", (("a", 1, (50.0, 10.0, None, 0.0)), ("b", 2, (40.0, 30.0, 5.0, 0.0)),
                              ("c", 3, (40.0, 20.0, None, 0.0))))))
    # Avg.: 50 best, both 40s second; x: 30 best, 20 second; y: one value only; z: all equal: not marked
    assert board.marks() == {"a": ("best", None, None, None), "b": ("second", "best", None, None),
                             "c": ("second", "second", None, None)}
    md = "\n".join(to_markdown(board.marked_grid()))
    assert "| a | 1 | **50.0** | 10.0 | - | 0.0 |" in md
    assert "| b | 2 | <u>40.0</u> | **30.0** | 5.0 | 0.0 |" in md
    assert "| Chance | - | 99.0 | 99.0 | 99.0 | 99.0 |" in md  # baselines are not ranked, not marked
    assert board.group_spans() == [("G", 2), ("", 1)]


def test_radar_of_thirteen_columns_overlays_runs_without_overlapping_text(tmp_path, monkeypatch) -> None:
    from spatialbench.benchmarks.mmsi_video.breakdown import SUBTYPES
    from spatialbench.report import figures
    from support.text_boxes import capture, overlaps

    columns = [label for _, label in SUBTYPES]
    series = [("O3", [34.9, 34.2, 40.3, 36.2, 40.5, 43.8, 37.6, 37.8, 35.8, 41.2, 25.7, 41.1, 26.8]),
              ("GPT-4o", [26.5, 26.3, 31.2, 26.1, 38.0, 38.8, 36.6, 35.6, 27.2, 30.4, 28.6, 33.1, 29.3]),
              ("none", [None] * 13)]
    with capture(monkeypatch, figures) as drawn:
        figures.radar(columns, series, "MMSI-Video-Bench", tmp_path / "radar", ("chance", [24.1] * 13))
    chart = drawn["radar"]
    lines = [line.get_label() for line in chart.figure.axes[0].get_lines()
             if not line.get_label().startswith("_")]
    assert lines == ["chance", "O3", "GPT-4o", "none"]  # one chart, every run a line
    texts = [t.text for t in chart.labels]
    assert all(texts.count(c) == 1 for c in columns) and texts.count("GPT-4o") == 1
    assert min(t.points for t in chart.labels) >= 9
    assert overlaps(chart.labels) == []


def test_leaderboard_latex_has_the_group_row_and_the_marks() -> None:
    from spatialbench.report.tables import Leaderboard

    board = Leaderboard(
        header=("Avg.", "x", "y", "z"), keys=("x", "y", "z"), groups=("Spatial", "Spatial", "Motion"),
        sections=(("Models", (("a", 1, (50.0, 10.0, 7.0, 1.0)), ("b", 2, (40.0, 30.0, 5.0, 2.0)))),))
    tex = board.latex().splitlines()
    # Method, Rank, Avg. blank; "Spatial" over x, y (columns 4-5), "Motion" over z (column 6)
    assert tex[2] == r" &  &  & \multicolumn{2}{c}{Spatial} & \multicolumn{1}{c}{Motion} \\"
    assert tex[3] == r"\cmidrule(lr){4-5} \cmidrule(lr){6-6}"
    assert tex[4] == r"Method & Rank & Avg. & x & y & z \\"
    assert r"a & 1 & \textbf{50.0} & \underline{10.0} & \textbf{7.0} & \underline{1.0} \\" in tex
    assert r"b & 2 & \underline{40.0} & \textbf{30.0} & \underline{5.0} & \textbf{2.0} \\" in tex


def test_breakdown_interval_rows_are_error_bars_not_bar_series(tmp_path: Path, monkeypatch) -> None:
    # the breakdown grids gained "<run> 95 % CI" rows (issue 21); the figures drew them as empty bar series
    # with legend entries "direct 95 % CI" (seen in the MMSI subtype chart)
    from spatialbench.report import plots
    from spatialbench.scoring.render import Grid

    grid = Grid(("x", "y"), (("direct", (50.0, 25.0)), ("direct 95 % CI", ("[40.0, 60.0]*", None)),
                             ("random guess", (25.0, 25.0)), ("n", (4, 0))), "Subtypes",
                intervals=(("direct", ((40.0, 60.0), None)),))
    calls = []
    monkeypatch.setattr(plots.figures, "grouped_bars", lambda *a, **k: calls.append((a, k)) or [])
    monkeypatch.setattr(plots, "figure_of", lambda *a: None)
    plots.breakdown_figures(tmp_path, [grid], [])
    ((args, kwargs),) = calls
    assert args[1] == [("direct", (50.0, 25.0))] and args[2] == [("random guess", (25.0, 25.0))]
    assert kwargs["intervals"] == [[(40.0, 60.0), None]]


def test_cells_under_30_items_are_never_marked() -> None:
    from spatialbench.report.tables import Leaderboard

    # issue 21 newcomer check: b's x (n=5) was marked best though the footnote calls it too few to rank by
    small, big = ((0.0, 50.0), 5, True), ((0.0, 50.0), 40, False)
    board = Leaderboard(
        header=("Avg.", "x"), keys=("x",), groups=("",),
        sections=(("Models", (("a", 1, (50.0, 10.0)), ("b", 2, (40.0, 30.0)), ("c", 2, (40.0, 20.0)))),),
        intervals={"a": (big, big), "b": (big, small), "c": (big, big)})
    # x among the ranked cells only: c's 20 best, a's 10 second, b's 30 (n=5) unmarked
    assert board.marks() == {"a": ("best", "second"), "b": ("second", None), "c": ("second", "best")}


def test_runs_tied_on_avg_share_a_rank() -> None:
    from spatialbench.report.tables import competition_ranks

    assert competition_ranks([50.0, 40.0, 40.0, 30.0]) == [1, 2, 2, 4]
    assert competition_ranks([None, 10.0]) == [2, 1]
