"""``run`` records answerability per item (frames sent); ``report`` splits accuracy by it (issue 23 #5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spatialbench.analysis.answerability import accuracy_by_answerability, item_answerability
from spatialbench.api import open_run, run
from spatialbench.benchmarks import get_benchmark
from spatialbench.media.sampling import parse_strategy
from spatialbench.report.build import build_report
from support.demo_runs import demo_benchmark, scripted_model
from support.openai_server import OpenAIServer, ServerScript


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_benchmark(tmp_path_factory.mktemp("answerability-demo"))


def test_run_records_the_commands_verdicts_and_report_splits_accuracy(demo: Path, tmp_path: Path) -> None:
    items = list(get_benchmark("vsibench").load_items(demo))
    two = parse_strategy("uniform:2")
    expected = {i.id: item_answerability(i, demo, two) for i in items}  # what `answerability` computes
    # the scripted model answers right exactly the items answerable from the 2 frames sent
    answerable = {i for i, v in expected.items() if v is not None and v["answerable"]}
    model = scripted_model(items, lambda item, n: n == 2 and item.id in answerable)
    with OpenAIServer(ServerScript(answer_seen=model)) as server:
        run(
            {
                "data": {"benchmark": "vsibench", "path": str(demo)},
                "model": {"name": f"openai-compatible:{server.url}#scripted", "concurrency": 4},
                "media": {"frames": "uniform:2", "max_pixels": 160 * 120},
                "out": str(tmp_path / "run"),
            },
            progress=False,
        )
    folder = open_run(tmp_path / "run", scored=True)
    recorded = folder.answerability()
    assert recorded == {i: v for i, v in expected.items() if v is not None}
    assert len(recorded) == 41  # room size names no object: no verdict
    assert sum(v["answerable"] for v in recorded.values()) == 10  # the command's share 0.244 of 41
    split = accuracy_by_answerability(folder.score().rows, recorded)
    # the demo is one scene: no interval (it was [100.0, 100.0], the point; newcomer check item 1)
    assert split["overall"]["answerable"] == {"score": 100.0, "ci95": None, "n": 10, "scenes": 1}
    assert split["overall"]["unanswerable"] == {"score": 0.0, "ci95": None, "n": 31, "scenes": 1}
    for task, cells in split.items():
        if task != "overall":
            n_task = sum(1 for i in items if i.task == task and i.id in recorded)
            assert cells["answerable"]["n"] + cells["unanswerable"]["n"] == n_task
    report = build_report([tmp_path / "run"], tmp_path / "report", sheets=0)
    html = report.index.read_text()
    assert '<h2 id="answerability">Answerable vs unanswerable items</h2>' in html and "<h3>run</h3>" in html
    assert "100.0 - n=10 (1 scene)" in html and "0.0 - n=31 (1 scene)" in html


def test_the_command_prints_overall_last(demo: Path) -> None:
    """Newcomer check item 4: ``overall`` sorted among the tasks, before ``route_planning``."""
    from typer.testing import CliRunner

    from spatialbench.cli.main import app

    result = CliRunner().invoke(app, ["answerability", "--data", str(demo), "--frames", "uniform:2"])
    assert result.exit_code == 0, result.output
    rows = [line.split(" | ")[0].lstrip("| ") for line in result.output.splitlines()[2:] if line]
    assert rows[-2:] == ["route_planning", "overall"] and rows[:-1] == sorted(rows[:-1])
    assert "| overall | 0.24 (n=41) |" in result.output  # 10 of 41 answerable (the run test above)


def test_a_run_of_media_without_visibility_records_none(tmp_path: Path) -> None:
    from support.vsi_data import make_vsibench

    make_vsibench(tmp_path / "data", n_videos=1, per_video=2, n_frames=8)
    data = tmp_path / "data"
    with OpenAIServer(ServerScript(answer=lambda text: "A")) as server:
        run(
            {
                "data": {"benchmark": "vsibench", "path": str(data)},
                "model": {"name": f"openai-compatible:{server.url}#m"},
                "media": {"frames": "uniform:4"},
                "out": str(tmp_path / "run"),
            },
            progress=False,
        )
    folder = open_run(tmp_path / "run", scored=True)
    assert folder.answerability() == {}
    assert len(folder.answers()) == 2
