"""``spatialbench judge`` end to end against three scripted loopback judges, and resume after SIGKILL.

The run: a scripted model answers every ReMindView fixture item with the same 4-phase text ending in A,
so 6 of 11 items are right. View graphs are written for every frame set but Bedroom level_4 (items
object_centric_qa:3, 4, 5), leaving 8 items to judge: correct oc2, oc6, vc1, vc2, vc3; incorrect oc0,
oc1, vc0. Judge A always replies valid JSON; judge B replies prose first, valid JSON on the retry (and
prose twice for vc0's question: a recorded failure); judge C disagrees.
"""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.mmsi_remindview_fixtures import build_remindview
from spatialbench.analysis.asking import endpoint_label
from spatialbench.analysis.judge.schema import parse_judgement
from spatialbench.api import run
from spatialbench.cli.main import app
from spatialbench.runs import RunConfig
from support.judge_scripts import FOUR_PHASES, add_view_graphs, answered_run, judge_reply, question_of
from support.openai_server import OpenAIServer, ServerScript

CORRECT = {
    "object_centric_qa:2",
    "object_centric_qa:6",
    "view_centric_qa:1",
    "view_centric_qa:2",
    "view_centric_qa:3",
}
INCORRECT = {"object_centric_qa:0", "object_centric_qa:1", "view_centric_qa:0"}
A = {True: (80, 60, 40), False: (70, 40, 20)}
B = {True: (90, 50, 40), False: (70, 30, 20)}
C = {True: (20, 90, None), False: (100, 10, 0)}
RETRY = "Your reply is not valid"


@pytest.fixture()
def judged_run(tmp_path: Path) -> tuple[Path, dict[str, bool], str]:
    data = build_remindview(tmp_path / "data")
    add_view_graphs(data, skip=("Bedroom/object_centric/bed_spawn_asset/level_4",))
    with OpenAIServer(ServerScript(answer=lambda text: FOUR_PHASES)) as server:
        config = RunConfig.model_validate(
            {
                "data": {"benchmark": "remindview", "path": str(data)},
                "model": {"name": f"openai-compatible:{server.url}#vlm", "timeout_s": 10},
                "out": str(tmp_path / "run"),
            }
        )
        assert run(config, progress=False).counts["ok"] == 11
    from spatialbench.benchmarks import get_benchmark

    items = get_benchmark("remindview").load_items(str(data))
    correct = {i.question: i.id in CORRECT for i in items if i.id in CORRECT | INCORRECT}
    vc0 = next(i.question for i in items if i.id == "view_centric_qa:0")
    return tmp_path / "run", correct, vc0


def _judges(correct: dict[str, bool], vc0: str):
    def a(text: str) -> str:
        return judge_reply(A[correct[question_of(text)]])

    def b(text: str) -> str:
        if RETRY not in text or question_of(text) == vc0:
            return "Phase 1 looks right to me; phase 2 less so."
        return judge_reply(B[correct[question_of(text)]])

    def c(text: str) -> str:
        return judge_reply(C[correct[question_of(text)]])

    return [ServerScript(answer=f) for f in (a, b, c)]


def _hand_alpha(units: list[list[float]]) -> float:
    """Krippendorff's interval alpha from its definition: 1 - D_o / D_e over pairable values."""
    units = [u for u in units if len(u) >= 2]
    values = [v for u in units for v in u]
    n = len(values)
    observed = (
        sum(
            sum((x - y) ** 2 for i, x in enumerate(u) for j, y in enumerate(u) if i != j) / (len(u) - 1)
            for u in units
        )
        / n
    )
    expected = sum((x - y) ** 2 for i, x in enumerate(values) for j, y in enumerate(values) if i != j) / (
        n * (n - 1)
    )
    return 1 - observed / expected


def test_three_judges_table_alpha_and_failures(judged_run) -> None:
    run_dir, correct, vc0 = judged_run
    scripts = _judges(correct, vc0)
    with OpenAIServer(scripts[0]) as ja, OpenAIServer(scripts[1]) as jb, OpenAIServer(scripts[2]) as jc:
        names = [f"openai-compatible:{s.url}#judge-{x}" for s, x in ((ja, "a"), (jb, "b"), (jc, "c"))]
        args = ["judge", str(run_dir), *(a for n in names for a in ("--judge", n)), "--timeout", "10"]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert [len(s.answered()) for s in scripts] == [8, 16, 8]  # B: every item retried once
    doc = json.loads((run_dir / "analysis" / "judge.json").read_text())
    assert doc["analysis"] == "judge" and doc["version"] == 1
    assert doc["items"]["judged"] == 8 and doc["items"]["no_ground_truth"] == 3
    b = doc["per_judge"][endpoint_label(names[1])]
    assert (b["valid"], b["failed"]) == (7, 1)
    assert b["failures"][0]["item"] == "view_centric_qa:0"
    assert "invalid reply after one retry: no JSON object found" in b["failures"][0]["error"]
    table = doc["table"]
    # correct: phase 1 (80 + 90 + 20) / 3, phase 2 (60 + 50 + 90) / 3, phase 3 (40 + 40) / 2 (C states none)
    assert [table["correct"][k]["mean"] for k in "123"] == pytest.approx([190 / 3, 200 / 3, 40.0])
    # incorrect: oc0, oc1 have three judges, vc0 two (B failed): phase 1 ((70+70+100)/3 * 2 + 85) / 3
    assert table["incorrect"]["1"]["mean"] == pytest.approx((80 * 2 + 85) / 3)
    assert table["incorrect"]["2"]["mean"] == pytest.approx((80 / 3 * 2 + 25) / 3)
    assert table["incorrect"]["3"]["mean"] == pytest.approx((40 / 3 * 2 + 10) / 3)
    units = []
    for ok, count in ((True, 5), (False, 2)):
        for k in range(3):
            units += [[v for v in (A[ok][k], B[ok][k], C[ok][k]) if v is not None]] * count
    units += [[A[False][k], C[False][k]] for k in range(3)]  # vc0 without B
    assert doc["agreement"]["krippendorff_alpha"] == pytest.approx(_hand_alpha(units), abs=1e-9)
    assert "Qwen2.5-VL-7B (Table 2) | 76.1 | 58.2 | 36.3 | 72.5 | 43.6 | 21.9" in result.output


def _judge_store_ok(path: Path) -> int:
    try:
        with sqlite3.connect(path) as conn:
            return conn.execute("SELECT COUNT(*) FROM results WHERE status = 'ok'").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_killed_judge_run_resumes(judged_run) -> None:
    run_dir, correct, vc0 = judged_run
    script = ServerScript(answer=lambda text: judge_reply(A[correct[question_of(text)]]), hold_after=3)
    with OpenAIServer(script) as server:
        command = [
            sys.executable,
            "-m",
            "spatialbench.cli.main",
            "judge",
            str(run_dir),
            "--judge",
            f"openai-compatible:{server.url}#judge-a",
            "--concurrency",
            "2",
        ]
        first = subprocess.Popen(
            command, env=dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        stores = (
            list((run_dir / "analysis" / "judge").glob("*/run.sqlite"))
            if (run_dir / "analysis").exists()
            else []
        )
        deadline = time.monotonic() + 60
        while not (
            stores and _judge_store_ok(stores[0]) == 3 and any(r.outcome == "held" for r in script.log)
        ):
            assert time.monotonic() < deadline, "timed out waiting for 3 stored judgements"
            time.sleep(0.05)
            stores = list((run_dir / "analysis" / "judge").glob("*/run.sqlite"))
        first.send_signal(signal.SIGKILL)
        first.wait()
        script.hold_after = None
        script.release.set()
        second = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert second.returncode == 0, second.stdout + second.stderr
    asked = Counter(question_of(r.text) for r in script.answered())
    assert len(asked) == 8 and set(asked.values()) == {1}  # every item judged exactly once overall
    doc = json.loads((run_dir / "analysis" / "judge.json").read_text())
    part = doc["per_judge"][endpoint_label(command[-3])]
    assert (part["valid"], part["failed"], part["requests_sent"]) == (8, 0, 5)


def test_judge_replies_are_validated() -> None:
    assert parse_judgement(judge_reply((50, None, 0))).judgement.percents() == {1: 50.0, 2: None, 3: 0.0}
    bad = '{"phase1": {"stated": 2, "correct": 1, "percent": 80}, "phase2": {}, "phase3": {}}'
    assert "percent 80.0 is not 100 * 1 / 2" in parse_judgement(bad).error
    assert parse_judgement(None).error == "the reply is not text"


def test_two_endpoints_serving_one_model_name_are_two_judges(judged_run) -> None:
    run_dir, correct, vc0 = judged_run
    scripts = _judges(correct, vc0)
    with OpenAIServer(scripts[0]) as ja, OpenAIServer(scripts[2]) as jc:
        names = [f"openai-compatible:{s.url}#judge" for s in (ja, jc)]
        args = ["judge", str(run_dir), "--judge", names[0], "--judge", names[1], "--timeout", "10"]
        result = CliRunner().invoke(app, args)
        twice = CliRunner().invoke(app, ["judge", str(run_dir), "--judge", names[0], "--judge", names[0]])
    assert result.exit_code == 0, result.output
    assert [len(s.answered()) for s in (scripts[0], scripts[2])] == [8, 8]
    doc = json.loads((run_dir / "analysis" / "judge.json").read_text())
    assert doc["judges"] == [endpoint_label(n) for n in names] and len(set(doc["judges"])) == 2
    assert len(list((run_dir / "analysis" / "judge").glob("*/run.sqlite"))) == 2
    assert "mean of 2 judge(s)" in result.output
    # correct, phase 1: (80 + 20) / 2 (judges A and C)
    assert doc["table"]["correct"]["1"]["mean"] == pytest.approx(50.0)
    assert twice.exit_code == 2 and "the same --judge is given twice" in twice.output


def _judged_by_a(tmp_path: Path, answer: str) -> tuple[dict, list[str], int]:
    answered_run(tmp_path, answer)
    script = ServerScript(answer=lambda text: judge_reply((80, 60, 40)))
    with OpenAIServer(script) as judge:
        result = CliRunner().invoke(
            app, ["judge", str(tmp_path / "run"), "--judge", f"openai-compatible:{judge.url}#j"]
        )
    path = tmp_path / "run" / "analysis" / "judge.json"
    doc = json.loads(path.read_text()) if path.exists() else {}
    return doc, [r.text for r in script.answered()], result.exit_code


def test_a_phase_missing_from_the_answer_is_recorded_not_scored(tmp_path: Path) -> None:
    no_phase_2 = FOUR_PHASES.replace("**(2)** frame1 is taken from the front-right of frame0.\n", "")
    doc, sent, code = _judged_by_a(tmp_path, no_phase_2)
    assert code == 0 and len(sent) == 11 and doc["items"]["missing_phase_2"] == 11
    for group in ("correct", "incorrect"):
        assert doc["table"][group]["2"]["mean"] is None  # the judge's 60 for phase 2 is not used
        assert doc["table"][group]["1"]["mean"] == pytest.approx(80.0)
    assert set(next(iter(doc["scores"].values()))["object_centric_qa:0"].items()) == {
        ("1", 80.0),
        ("2", None),
        ("3", 40.0),
    }


def test_an_answer_without_phases_is_not_sent_to_the_judge(tmp_path: Path) -> None:
    doc, sent, code = _judged_by_a(tmp_path, "A. left")
    assert sent == [] and doc == {} and code == 1


def test_nothing_judged_keeps_the_previous_judge_json(judged_run) -> None:
    run_dir, correct, vc0 = judged_run
    previous = run_dir / "analysis" / "judge.json"
    previous.parent.mkdir(parents=True, exist_ok=True)
    previous.write_text('{"analysis": "judge", "kept": true}')
    garbage = ServerScript(answer=lambda text: "no idea")
    with OpenAIServer(garbage) as server:
        result = CliRunner().invoke(
            app, ["judge", str(run_dir), "--judge", f"openai-compatible:{server.url}#g"]
        )
    assert result.exit_code == 1, result.output
    assert "nothing scored" in result.output and str(previous) in result.output
    assert json.loads(previous.read_text()) == {"analysis": "judge", "kept": True}


def test_a_huge_judge_reply_is_capped_in_the_store_and_the_retry(judged_run) -> None:
    run_dir, correct, vc0 = judged_run

    def huge_then_valid(text: str) -> str:
        return judge_reply(A[correct[question_of(text)]]) if RETRY in text else "x" * 5_000_000

    script = ServerScript(answer=huge_then_valid)
    with OpenAIServer(script) as server:
        result = CliRunner().invoke(
            app, ["judge", str(run_dir), "--judge", f"openai-compatible:{server.url}#j"]
        )
    assert result.exit_code == 0, result.output
    retries = [r.text for r in script.answered() if RETRY in r.text]
    assert len(retries) == 8 and all(len(t) < 100_000 for t in retries)  # 64 KiB of the reply sent back
    (store,) = (run_dir / "analysis" / "judge").glob("*/run.sqlite")
    with sqlite3.connect(store) as conn:
        rows = conn.execute("SELECT length(response), raw FROM turns WHERE turn = 'ask'").fetchall()
    assert len(rows) == 8
    assert all(
        n == 64 * 1024 and json.loads(raw)["reply_truncated_from_bytes"] == 5_000_000 for n, raw in rows
    )
    assert store.stat().st_size < 8 * 3 * 64 * 1024 + 2_000_000


def test_not_answered_counts_only_the_run_s_scored_items(tmp_path: Path) -> None:
    from spatialbench.analysis.stored import StoredAnswer, answered_items
    from spatialbench.benchmarks import get_benchmark

    items = list(get_benchmark("remindview").load_items(str(build_remindview(tmp_path / "data"))))
    scored = {i.id: True for i in items[:5]}  # a --limit 5 run of 11 items
    answers = {i.id: StoredAnswer(FOUR_PHASES, {}) for i in items[:4]}
    pairs, not_answered = answered_items(items, answers, scored)
    assert [i.id for i, _ in pairs] == [i.id for i in items[:4]] and not_answered == 1


def test_the_judge_runs_inside_a_running_event_loop(judged_run) -> None:
    # a notebook cell: the loop is already running; run_sync must not nest asyncio.run
    import asyncio

    from spatialbench.analysis.judge.study import ANALYSIS
    from spatialbench.api.sync import run_sync
    from spatialbench.runs.folder import open_run

    run_dir, correct, _ = judged_run
    script = ServerScript(answer=lambda text: judge_reply(A[correct[question_of(text)]]))
    with OpenAIServer(script) as server:
        name = f"openai-compatible:{server.url}#judge-a"

        async def cell():
            return run_sync(ANALYSIS.arun(open_run(run_dir, scored=True), judges=(name,), timeout_s=10))

        doc = asyncio.run(cell())
    assert doc.analysis == "judge" and doc.items["judged"] == 8 and len(script.answered()) == 8
    with pytest.raises(NotImplementedError, match="arun"):
        ANALYSIS.run(open_run(run_dir, scored=True), judges=(name,))
