"""`spatialbench report` on the demo benchmark: a vision run, a blind run and both chance baselines."""

from __future__ import annotations

import json
import re
from pathlib import Path

import html5lib
import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.report import build_report, figures, load_run
from spatialbench.report.tables import leaderboard
from support.text_boxes import capture, overlaps

pytestmark = pytest.mark.slow  # renders a demo scene (about 10 s)

RUNS = ("vision", "blind", "random", "frequency")


#: the report's charts as saved: file stem → texts measured (tests/support/text_boxes.py)
DRAWN: dict = {}


@pytest.fixture(scope="module")
def report(demo_runs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    with pytest.MonkeyPatch.context() as patch, capture(patch, figures) as drawn:
        build_report([demo_runs[n] for n in RUNS], out)
    DRAWN.update(drawn)
    return out


def records(demo_runs) -> list[dict]:
    return [json.loads(line) for line in (demo_runs["benchmark"] / "test.jsonl").read_text().splitlines()]


def hand_score(record: dict, right: bool) -> float:
    """1 if right; else 0: another letter, or 10 t + 10 for a number t (relative error > 9: MRA 0)."""
    return 1.0 if right else 0.0


def test_vision_row_is_the_hand_computed_score(demo_runs) -> None:
    run = load_run(demo_runs["vision"])
    by_task: dict[str, list[float]] = {}
    for record in records(demo_runs):
        by_task.setdefault(record["question_type"], []).append(hand_score(record, record["id"] % 2 == 0))
    expected = {task: 100 * sum(s) / len(s) for task, s in by_task.items()}
    table = run.result.table
    assert table.scores["object_rel_distance"] == pytest.approx(expected["object_rel_distance"])
    assert table.scores["route_planning"] == pytest.approx(expected["route_planning"])
    directions = [expected[t] for t in expected if t.startswith("object_rel_direction")]
    assert table.scores["object_rel_direction"] == pytest.approx(sum(directions) / len(directions))


def test_leaderboard_has_fig6_sections_ranks_and_chance_dashes(demo_runs) -> None:
    board = leaderboard([load_run(demo_runs[n]) for n in RUNS])
    titles = [title for title, _ in board.sections]
    assert titles == ["Baseline", "Models"]
    baseline, models = (dict((name, (rank, values)) for name, rank, values in e) for _, e in board.sections)
    assert list(baseline) == ["Chance Level (Random)", "Chance Level (Frequency)"]
    rank, values = baseline["Chance Level (Random)"]
    # Fig. 6: chance (random) has no Avg. and no numerical columns; Rel. Dist. is 1/4 with 4 options
    assert rank is None and values[0] is None and values[1:5] == (None,) * 4
    assert values[board.header.index("Rel. Dist.")] == pytest.approx(25.0)
    assert [models[n][0] for n in models] == [1, 2] and list(models) == ["vision", "blind (blind)"]
    # Fig. 6's header groups, from the benchmark's own table (ScoringRules.column_groups)
    assert board.group_spans() == [("Numerical Answer", 4), ("Multiple-Choice Answer", 4)]


def test_group_headers_do_not_depend_on_the_first_run(demo_runs) -> None:
    # chance-random answers no numerical item: when its run came first, the answer kinds were read from its
    # rows and "Numerical Answer" was left blank (the headers spanned 4 of 8 columns); the spec decides now
    board = leaderboard([load_run(demo_runs[n]) for n in ("random", "vision")])
    assert board.group_spans() == [("Numerical Answer", 4), ("Multiple-Choice Answer", 4)]


def test_every_figure_with_data_is_written_as_png_and_svg(report) -> None:
    for stem in ("tasks", "radar", "gap-blind"):
        png, svg = report / "figures" / f"{stem}.png", report / "figures" / f"{stem}.svg"
        with Image.open(png) as image:
            assert image.width > 500 and image.height > 400
            colours = len(np.unique(np.asarray(image.convert("RGB")).reshape(-1, 3), axis=0))
        assert colours > 20  # something is drawn, not a blank canvas
        assert svg.read_text().startswith("<?xml")
    assert not list((report / "figures").glob("breakdown-*"))  # one dataset, no breakdown: none drawn


def test_report_charts_have_no_text_over_text_and_nothing_under_9_pt(report) -> None:
    assert {"tasks", "radar", "gap-blind"} <= set(DRAWN)
    for stem, chart in DRAWN.items():
        assert overlaps(chart.labels) == [], stem
        assert min(t.points for t in chart.labels) >= 9, stem


def test_task_and_gap_bars_carry_intervals_and_n(report, demo_runs) -> None:
    # issue 21 newcomer check: figures/tasks.png and the Fig. 13 gap figure had no error bars and no n
    from matplotlib.container import ErrorbarContainer

    vision = load_run(demo_runs["vision"]).result.table
    counts = {c.group: c.n for c in vision.cells}
    for stem in ("tasks", "gap-blind"):  # tasks: vision + blind bars; gap: two differences per column
        axes = DRAWN[stem].figure.axes[0]
        errors = [c for c in axes.containers if isinstance(c, ErrorbarContainer)]
        if stem == "tasks":  # the demo is one scene: a score has no interval (issue 23 newcomer check 1)
            assert all(np.isnan(np.asarray(s.get_segments())).all() for e in errors for s in e.lines[2]), stem
        else:  # a paired difference still carries its bootstrap interval
            assert len(errors) >= len(counts), stem
        ticks = [" ".join(t.get_text().split()) for t in axes.get_xticklabels()]  # labels may be rewrapped
        assert f"Obj. Count n={counts['Obj. Count']}" in ticks, (stem, ticks)


def test_one_radar_overlays_every_answering_run(report) -> None:
    # Fig. 1 (left) overlays the models: one radar, a line per vision / blind run, frequency chance dashed
    assert [p.name for p in sorted((report / "figures").glob("radar*"))] == ["radar.png", "radar.svg"]
    svg = (report / "figures" / "radar.svg").read_text()
    legend = svg[svg.index('<g id="legend_1">'):]
    names = re.findall(r"<!-- (.+?) -->", legend)  # matplotlib writes each text as a comment
    assert names == ["Chance Level (Frequency)", "vision", "blind (blind)"]
    assert (report / "index.html").read_text().count('src="figures/radar.png"') == 1


def test_leaderboard_html_groups_and_marks(report, demo_runs) -> None:
    tree = html5lib.parse((report / "index.html").read_text(), namespaceHTMLElements=False)
    table = next(t for t in tree.iter("table") if t.get("id") == "main-table")
    top, second = table.find("thead").findall("tr")
    groups = [(th.text, int(th.get("colspan"))) for th in top.findall("th") if th.get("colspan")]
    assert groups == [("Numerical Answer", 4), ("Multiple-Choice Answer", 4)]
    assert sum(span for _, span in groups) == len(second.findall("th")) == 8
    rows = {tr.find("td/a").text: tr.findall("td")[2:] for tr in table.find("tbody").findall("tr")
            if tr.find("td/a") is not None}
    board = leaderboard([load_run(demo_runs[n]) for n in RUNS])
    marks = board.marks()
    for name in ("vision", "blind (blind)"):
        assert [td.get("class") for td in rows[name]] == list(marks[name])
    assert all(td.get("class") is None for td in rows["Chance Level (Frequency)"])
    assert marks["vision"][0] == "best" and marks["blind (blind)"][0] == "second"  # Avg. 1st and 2nd


def test_tables_in_markdown_csv_latex(report, demo_runs) -> None:
    vision = load_run(demo_runs["vision"]).result.table
    csv = (report / "tables" / "leaderboard.csv").read_text().splitlines()
    row = next(line for line in csv if line.startswith("\"vision\","))
    assert row.split(",")[1:3] == ["1", str(vision.average)]
    tex = (report / "tables" / "leaderboard.tex").read_text()
    assert r"\multicolumn{11}{l}{\textit{Baseline}} \\" in tex
    assert f"vision & 1 & \\textbf{{{vision.average:.1f}}} &" in tex  # the best Avg. in bold, as the papers
    assert r"\multicolumn{4}{c}{Numerical Answer} & \multicolumn{4}{c}{Multiple-Choice Answer} \\" in tex
    assert "| Chance Level (Random) | - | - | - |" in (report / "tables" / "leaderboard.md").read_text()


def _pages(report: Path) -> list[Path]:
    return [report / "index.html", *sorted((report / "items").glob("*.html")),
            *sorted((report / "runs").glob("*.html"))]


def test_html_parses_without_errors_and_references_no_network(report) -> None:
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    for page in _pages(report):
        tree = parser.parse(page.read_text(encoding="utf-8"))
        for element in tree.iter():
            for attribute in ("src", "href"):
                value = element.get(attribute)
                if value is None or value.startswith("#"):
                    continue
                assert not re.match(r"^([a-z][a-z0-9+.-]*:|//)", value, re.I), (page, value)
                assert (page.parent / value.split("#")[0]).exists(), (page, value)


def test_item_page_shows_what_was_sent_and_read(report, demo_runs) -> None:
    run = load_run(demo_runs["vision"])
    row = run.result.rows.iloc[0]
    item = run.by_id[row["id"]]
    stored = run.answers[item.id]
    page = (report / "items" / f"{item.id}.html").read_text()
    times = ", ".join(f"{t:.2f}" for t in stored.prompt["media"][0]["timestamps"])
    assert item.question.replace("'", "&#39;") in page and f"<b>{item.ground_truth}</b>" in page
    video = Path(item.media[0].path).name
    assert f"4 frame(s) of {video} at {times} s" in page and "none (blind run)" in page
    assert f"{100 * row['score']:.1f} %" in page and str(row["rule"]) in page


def test_worst_items_come_first_with_a_contact_sheet_of_the_frames_sent(report, demo_runs) -> None:
    vision = load_run(demo_runs["vision"])
    index = (report / "index.html").read_text()
    task = "object_rel_distance"
    section = index.split(f"<h3>{vision.spec.task_title(task)}</h3>")[1].split("</table>")[0]
    listed = re.findall(r'href="items/([^"]+)\.html"', section)
    scores = [vision.result.rows.set_index("id").loc[i, "score"] for i in listed]
    assert scores == sorted(scores) and scores[0] == 0.0
    sheet = report / "sheets" / "vision" / f"{listed[0]}.jpg"
    with Image.open(sheet) as image:
        assert image.size == (4 * 200, 150)  # the 4 frames sent (uniform:4), 200 px wide, 160x120 aspect
    assert not (report / "sheets" / "blind").exists()  # a blind run sent no frame


def test_cli_report_and_bad_run_folder(demo_runs, tmp_path) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["report", str(demo_runs["vision"]), "--out", str(tmp_path / "r")])
    assert ok.exit_code == 0 and "index.html" in ok.output
    bad = runner.invoke(app, ["report", str(tmp_path), "--out", str(tmp_path / "r2")])
    assert bad.exit_code == 2 and f"{tmp_path}: not a run folder (no config.json)" in bad.output


def test_each_leaderboard_row_links_to_its_settings(report, demo_runs) -> None:
    index = (report / "index.html").read_text()
    assert '<a href="runs/blind-blind.html"' in index
    settings = (report / "runs" / "blind-blind.html").read_text()
    assert "&#34;blind&#34;: true" in settings and "uniform:4" in settings


def test_no_api_key_in_any_report_file(report) -> None:
    secret = b"sk-report-test-0a1b2c3d4e5f-never-written"  # set while the runs ran (conftest.SECRET)
    assert all(secret not in path.read_bytes() for path in report.rglob("*") if path.is_file())


def test_report_exclude_drops_flagged_items(demo_runs, tmp_path) -> None:
    flags = tmp_path / "flags.jsonl"  # as spatialbench serve writes it; the latest line of an id wins
    reviews = [("15", "wrong"), ("16", "ambiguous"), ("17", "wrong"), ("17", "fine")]
    lines = [json.dumps({"benchmark": "vsibench", "id": i, "flag": f}) + "\n" for i, f in reviews]
    flags.write_text("".join(lines))
    out = tmp_path / "r"
    args = ["report", str(demo_runs["vision"]), "--out", str(out), "--exclude", str(flags)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0 and "2 flagged item id(s) left out of every run" in result.output
    pages = {p.stem for p in (out / "items").glob("*.html")}
    assert "15" not in pages and "16" not in pages and "17" in pages
    assert len(pages) - 1 == len(records(demo_runs)) - 2  # items/index.html is not an item
