"""Every long command reports progress: the library's callback gets (done, total) from (0, N) to (N, N).

Issue 22 item 4 ("only run has a bar"). The bar itself is drawn on stderr only, and only on a terminal.
Each test states its total by hand from the fixture it builds.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.cli.progress_bar import progress_bar
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import make_vsibench

Calls = list[tuple[int, int]]


def _recorder() -> tuple[Calls, object]:
    calls: Calls = []
    return calls, lambda done, total, *name: calls.append((done, total))


def _counted(calls: Calls, total: int) -> None:
    """The calls went 0, 1, ..., total, always of ``total``."""
    assert calls == [(k, total) for k in range(total + 1)], calls


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_is_drawn_on_a_terminal_stderr_and_never_on_stdout(monkeypatch: pytest.MonkeyPatch) -> None:
    err, out = _Terminal(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdout", out)
    with progress_bar("judge") as bar:
        for k in range(7):
            bar(k, 6 if k < 6 else 6)
    assert "judge: 100%" in err.getvalue() and "6/6" in err.getvalue() and out.getvalue() == ""


def test_no_bar_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()  # isatty() is False: a pipe, a log file, CliRunner
    monkeypatch.setattr(sys, "stderr", err)
    with progress_bar("report") as bar:
        bar(0, 3)
        bar(3, 3)
    assert err.getvalue() == ""


@pytest.fixture(scope="module")
def vsi_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """Two shard runs of a 12-item VSI-Bench fixture (for merge) and one whole run (for report)."""
    root = tmp_path_factory.mktemp("progress")
    make_vsibench(root / "data", n_videos=3, per_video=4)
    with OpenAIServer(ServerScript(answer=lambda text: "A")) as server:
        outs = []
        for name, shard in (("s1", "1/2"), ("s2", "2/2"), ("whole", None)):
            args = [
                "run",
                "--benchmark",
                "vsibench",
                "--data",
                str(root / "data"),
                "--out",
                str(root / name),
                "--no-progress",
                "--model",
                f"openai-compatible:{server.url}#m",
                "--frames",
                "uniform:2",
            ]
            result = CliRunner().invoke(app, args + (["--shard", shard] if shard else []))
            assert result.exit_code == 0, result.output
            outs.append(root / name)
    return root, outs


def test_report_counts_each_run_then_five_stages(vsi_runs, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from spatialbench.report import build_report

    _, (s1, _, whole) = vsi_runs
    calls, progress = _recorder()
    build_report([whole, s1], tmp_path / "report", sheets=0, progress=progress)  # type: ignore[arg-type]
    _counted(calls, 2 + 5)  # two runs loaded, then tables, figures, sheets, transcripts, pages


def test_merge_counts_each_shard_then_the_score(vsi_runs, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from spatialbench.runs.merge import merge_runs

    _, (s1, s2, _) = vsi_runs
    calls, progress = _recorder()
    merge_runs([s1, s2], tmp_path / "merged", progress)  # type: ignore[arg-type]
    _counted(calls, 2 + 1)


def test_generate_vsibench_counts_each_task() -> None:
    from spatialbench.generate.vsi import GenerationSettings, generate_vsibench
    from spatialbench.scene import scene_from_meta
    from spatialbench.synth import SceneConfig, generate_scene

    room = generate_scene(SceneConfig(room_type="bedroom"), seed=3)
    scene = scene_from_meta(room.scene_id, room.meta_info(f"synthetic/{room.scene_id}.mp4"))
    calls, progress = _recorder()
    tasks = ["object_counting", "room_size_estimation", "object_size_estimation"]
    generate_vsibench([scene], tasks, GenerationSettings(), progress)  # type: ignore[arg-type]
    _counted(calls, 3)


def test_ingest_counts_each_scan(tmp_path: Path) -> None:
    from spatialbench.scene.ingest import ingest
    from spatialbench.synth import SceneConfig, generate_scene
    from support.scan_writers import write_scannet

    for seed in (1, 2):
        write_scannet(generate_scene(SceneConfig(room_type="bedroom"), seed=seed), tmp_path)
    calls, progress = _recorder()
    assert len(ingest("scannet", tmp_path, progress=progress)) == 2  # type: ignore[arg-type]
    _counted(calls, 2)


def test_stress_test_counts_each_question_type_and_debias_each_stress_test() -> None:
    from spatialbench.analysis.shortcuts import stress_test
    from spatialbench.analysis.shortcuts.pruning import iterative_bias_pruning
    from support.planted_shortcuts import planted_choices

    items, _ = planted_choices(60, planted=True)  # one question type
    calls, progress = _recorder()
    stress_test(items, "random", progress=progress)  # type: ignore[arg-type]
    _counted(calls, 1)
    calls, progress = _recorder()
    iterative_bias_pruning(items, budget=20, batch_size=10, floor=40, control_seeds=2, progress=progress)  # type: ignore[arg-type]
    # budget 20 in batches of 10: 2 iterations (60 -> 40 items, the floor), then before, after, 2 seeds
    _counted(calls, 2 + 2 + 2)


def test_answerability_counts_items_times_strategies(tmp_path: Path) -> None:
    from spatialbench.analysis.answerability import answerability_shares
    from spatialbench.media.sampling import parse_strategy
    from spatialbench.records.item import AnswerKind, Item

    items = [
        Item(
            id=f"q{k}",
            benchmark="vsibench",
            task="object_counting",
            question="How many cup(s)?",
            ground_truth="1",
            answer_kind=AnswerKind.NUMERICAL,
        )
        for k in range(3)
    ]
    calls, progress = _recorder()
    answerability_shares(
        items, tmp_path, [parse_strategy("uniform:2"), parse_strategy("uniform:4")], progress
    )  # type: ignore[arg-type]
    _counted(calls, 3 * 2)


def test_entropy_counts_each_stored_answer(tmp_path: Path) -> None:
    from spatialbench.analysis.registry import ANALYSES
    from spatialbench.runs.folder import open_run
    from support.traced_runs import char_trace, write_traced_run

    rows = {
        f"i{k}": (char_trace("(1)xy(2)z", entropies=[0, 0, 0, 1.0, 2.0, 0, 0, 0, 4.0]), "A", 1.0)
        for k in range(4)
    }
    run_dir = write_traced_run(tmp_path / "run", tmp_path / "traces", rows)
    calls, progress = _recorder()
    ANALYSES.get("entropy").run(open_run(run_dir, scored=True), progress=progress, bins=2)  # type: ignore[arg-type]
    _counted(calls, 4)


def test_probe_counts_each_phase_probe(tmp_path: Path) -> None:
    from benchmarks.mmsi_remindview_fixtures import build_remindview
    from spatialbench.analysis.registry import ANALYSES
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.runs.folder import open_run
    from support.traced_runs import char_trace, write_traced_run

    data = build_remindview(tmp_path / "data")
    rng = np.random.default_rng(0)
    rows = {}
    for n, item in enumerate(get_benchmark("remindview").load_items(str(data))):
        letter = "AB"[n % 2]
        text = f"(1) seen {letter}. (2) moved. (3) so {letter}. (4) {letter}"
        logits = rng.normal(size=(len(text), len(set(text)))).astype(np.float32)
        rows[item.id] = (char_trace(text, logits), letter, 1.0 if n % 3 else 0.0)
    run_dir = write_traced_run(tmp_path / "run", tmp_path / "traces", rows, data=str(data))
    calls, progress = _recorder()
    ANALYSES.get("probe").run(open_run(run_dir, scored=True), progress=progress, probe="linear")  # type: ignore[arg-type]
    _counted(calls, 4)  # phases (1)-(4)
