"""``spatialbench profile`` on the demo benchmark against the loopback server (issue 23 item 7)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from spatialbench.analysis.shortcuts import stress_test
from spatialbench.api import profile
from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from spatialbench.records.item import Item
from spatialbench.report.build import build_report
from support.demo_runs import demo_benchmark, scripted_model
from support.openai_server import OpenAIServer, ServerScript

MC = ("object_rel_distance", "object_rel_direction", "route_planning", "obj_appearance_order")
NA = ("object_counting", "object_abs_distance", "object_size_estimation", "room_size_estimation")
REL_DIR = ("object_rel_direction_easy", "object_rel_direction_medium", "object_rel_direction_hard")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_benchmark(tmp_path_factory.mktemp("profile-demo"))


def _right(item: Item, images: int) -> bool:
    """The scripted model: right with 8 frames; with 1 frame, right on multiple choice only; blind, never."""
    return images >= 8 or (images == 1 and bool(item.options))


def _per_column(items: list[Item], share: Any) -> dict[str, float]:
    """A chance level per MC column by hand: ``share(items of a task)``; Rel. Dir. the mean of its 3 types."""
    by_task = {t: [i for i in items if i.task == t] for t in {i.task for i in items}}
    out = {t: share(by_task[t]) for t in MC if t in by_task}
    out["object_rel_direction"] = sum(share(by_task[t]) for t in REL_DIR) / 3
    return out


def _most_frequent_share(items: list[Item]) -> float:
    """Percent of items whose answer is the task's most frequent one: the answer text when every item
    offers the same texts (Rel. Dir.: left / right ...), else the letter (the baseline's rule)."""
    same = len({frozenset(o[3:] for o in i.options) for i in items}) == 1
    answers = [i.options["ABCD".index(i.ground_truth)][3:] if same else i.ground_truth for i in items]
    return 100 * Counter(answers).most_common(1)[0][1] / len(items)


def _config(data: Path, url: str) -> dict[str, Any]:
    return {
        "data": {"benchmark": "vsibench", "path": str(data)},
        "model": {"name": f"openai-compatible:{url}#scripted", "concurrency": 4},
        "media": {"max_pixels": 160 * 120},
        "out": "unused",
    }


def test_profile_of_the_demo_against_the_loopback_server(demo: Path, tmp_path: Path) -> None:
    items = list(get_benchmark("vsibench").load_items(demo))
    assert len(items) == 42
    out = tmp_path / "profile"
    with OpenAIServer(ServerScript(answer_seen=scripted_model(items, _right))) as server:
        doc = profile(_config(demo, server.url), out, frames=8).model_dump(mode="json")
        assert len(server.script.answered()) == 4 * 42  # blind, 1 frame, 8 frames, coverage:8
        rows = {r["setting"]: r["cells"] for r in doc["rows"]}
        assert list(rows) == [
            "chance-random",
            "chance-frequency",
            "blind",
            "frames-1",
            "frames-8",
            "coverage-8",
            "tst-rf",
        ]  # synthetic videos: the coverage row is there
        for column in (*MC, *NA):
            assert rows["blind"][column]["score"] == 0.0
            assert rows["frames-8"][column]["score"] == rows["coverage-8"][column]["score"] == 100.0
            assert rows["frames-1"][column]["score"] == (100.0 if column in MC else 0.0)
        # one scene: no interval (it was [50.0, 50.0], the point itself; newcomer check item 1)
        one_scene = {"score": 50.0, "ci95": None, "n": 42, "scenes": 1, "label": "Avg."}
        assert rows["frames-1"]["overall"] == one_scene
        assert rows["frames-8"]["object_rel_distance"]["n"] == 12 and rows["blind"]["overall"]["n"] == 42
        # chance levels by hand from the benchmark's answers: 1 / options, and the most frequent letter
        random = _per_column(items, lambda its: 100 * sum(1 / len(i.options) for i in its) / len(its))
        frequency = _per_column(items, _most_frequent_share)
        assert frequency["object_rel_direction"] == pytest.approx((2 / 3 + 3 / 5 + 3 / 5) / 3 * 100)
        assert frequency["object_rel_distance"] == 25.0  # letters A-D three times each
        for column in MC:
            assert rows["chance-random"][column]["score"] == pytest.approx(random[column])
            assert rows["chance-frequency"][column]["score"] == pytest.approx(frequency[column])
        assert all(rows["chance-random"][c]["score"] is None for c in NA)  # no random guess for numbers
        # TsT-RF: the stress-test's random folds on the same items; types with too few items are left out
        tst = stress_test(items, "random")
        assert {c: v["score"] for c, v in rows["tst-rf"].items() if c != "overall"} == {
            t: s.score for t, s in tst.tasks.items()
        }
        assert set(tst.skipped) >= {"object_counting", "route_planning", "obj_appearance_order"}
        assert rows["tst-rf"]["overall"]["n"] == len(tst.items)
        assert json.loads((out / "profile.json").read_text()) == doc
        # the command re-reads the finished runs: no request is sent again
        result = CliRunner().invoke(
            app,
            [
                "profile",
                "--data",
                str(demo),
                "--model",
                f"openai-compatible:{server.url}#scripted",
                "--out",
                str(out),
                "--max-pixels",
                str(160 * 120),
                "--no-progress",
            ],
        )
        assert result.exit_code == 0, result.output
        assert len(server.script.answered()) == 4 * 42
    assert "| 1 frame | 0.0 | 0.0 | 0.0 | 0.0 | 100.0 | 100.0 | 100.0 | 100.0 | 50.0 |" in result.output
    assert "| - n=42 (1 scene) |" in result.output  # 1 frame's Avg.: no 0-wide interval
    _same_rel_dir_chance(items, demo, tmp_path, result.output)
    report = build_report(sorted(p for p in out.iterdir() if p.is_dir()), tmp_path / "report", sheets=0)
    html = report.index.read_text()
    assert f"Benchmark diagnostic profile: vsibench × openai-compatible:{server.url}#scripted" in html
    assert "Coverage oracle (8 frames)" in html and "TsT-RF (text only)" in html
    assert any(f.png.endswith("/profile.png") for f in report.figures)


def _cell(markdown: str, row: str, column: str) -> str:
    """The text of ``row``'s cell under ``column`` in the first Markdown table of ``markdown`` naming both."""
    lines = [line for line in markdown.splitlines() if line.startswith("|")]
    header = next(line for line in lines if f" {column} |" in line).split(" | ")
    found = next(line for line in lines if line.startswith(f"| {row} |")).split(" | ")
    return found[header.index(column)].strip(" |")


def _same_rel_dir_chance(items: list[Item], demo: Path, tmp_path: Path, profile_output: str) -> None:
    """Newcomer check item 2: stress-test said 34.0, profile 36.1, unlabelled; each now names which.

    By hand: the level mean (1/2 + 1/3 + 1/4) / 3 = 36.1 (VSI-Bench Table 1, Chance Level (Random), the
    Rel. Dir. column a mean of its levels); the item mean weighs each level by its questions.
    """
    levels = Counter(i.task for i in items if i.task in REL_DIR)
    easy, medium, hard = (levels[t] for t in REL_DIR)
    item_mean = 100 * (easy / 2 + medium / 3 + hard / 4) / (easy + medium + hard)
    assert (easy, medium, hard) == (3, 5, 5) and f"{item_mean:.1f}" == "34.0"
    assert _cell(profile_output, "Chance (random)", "Rel. Dir.") == "36.1"
    assert _cell(profile_output, "TsT-RF chance (item mean)", "Rel. Dir.") == "34.0"
    assert "Rel. Dir. is the mean of its three levels" in profile_output
    result = CliRunner().invoke(app, ["stress-test", "--data", str(demo), "--out", str(tmp_path / "st")])
    assert result.exit_code == 0, result.output
    assert _cell(result.output, "object_rel_direction", "chance (item mean)") == "34.0"
    assert ("object_rel_direction: 34.0 over its 13 items (easy 50.0, medium 33.3, hard 25.0); the mean of "
            "the levels, as the benchmark's table (Chance Level (Random)), is 36.1") in result.output


def test_no_coverage_row_without_visibility(tmp_path: Path) -> None:
    from support.vsi_data import make_vsibench

    make_vsibench(tmp_path / "data", n_videos=2, per_video=6, n_frames=8)
    with OpenAIServer(ServerScript(answer=lambda text: "A")) as server:
        doc = profile(_config(tmp_path / "data", server.url), tmp_path / "out", frames=4)
    assert [r["setting"] for r in doc.model_dump()["rows"]] == [
        "chance-random",
        "chance-frequency",
        "blind",
        "frames-1",
        "frames-4",
        "tst-rf",
    ]


def test_a_dead_endpoint_stops_the_profile_in_one_line(tmp_path: Path) -> None:
    from support.vsi_data import make_vsibench

    make_vsibench(tmp_path / "data", n_videos=1, per_video=4, n_frames=8)
    out = tmp_path / "out"
    args = [
        "profile",
        "--data",
        str(tmp_path / "data"),
        "--model",
        "openai-compatible:http://127.0.0.1:9/v1#m",
        "--out",
        str(out),
        "--no-progress",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    assert result.output.startswith(f"error: profile run {out / 'blind'} stopped early: endpoint unreachable")
    assert len(result.output.strip().splitlines()) == 1
    assert sorted(p.name for p in out.iterdir()) == ["blind", "chance-frequency", "chance-random"]
