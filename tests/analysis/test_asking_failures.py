"""judge and consistency against a failing server: the reason, the true request count, a lock, progress.

Issue 26 ("Confusing now": "0 valid, 52 failed, 0 requests sent" while the server counted 312) and issue 22
item 4 (progress on every long command). The server is the loopback OpenAI-compatible one answering HTTP
500 to every request; its own log is the count the output must match, retries included.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.analysis.asking import endpoint_label, model_slug
from spatialbench.cli.main import app
from spatialbench.runs.lock import run_lock
from support.judge_scripts import FOUR_PHASES, answered_run, judge_reply
from support.openai_server import Fault, OpenAIServer, ServerScript

ITEMS = 11  # the ReMindView fixture's items, every one answered with phases 1-4 and a view graph


@pytest.fixture()
def answered(tmp_path: Path) -> Path:
    return answered_run(tmp_path, FOUR_PHASES)


def _failing() -> ServerScript:
    return ServerScript(fault=lambda seen, text: Fault("500"))


def test_judge_against_http_500_names_the_reason_and_the_server_s_request_count(answered: Path) -> None:
    script = _failing()
    with OpenAIServer(script) as server:
        name = f"openai-compatible:{server.url}#j"
        result = CliRunner().invoke(app, ["judge", str(answered), "--judge", name, "--max-attempts", "2"])
    assert result.exit_code == 1, result.output
    assert len(script.log) == ITEMS * 2  # every item tried twice: the first attempt and one retry
    lines = result.output.splitlines()
    assert lines[0] == (
        f"{endpoint_label(name)}: 0 valid, {ITEMS} failed, {ITEMS * 2} requests sent; "
        "first failure: item object_centric_qa:0: BackendError: gave up after 2 attempts: "
        "HTTP 500: Error code: 500 - injected 500"
    )
    assert lines[1].startswith("error: nothing scored, so ") and len(lines) == 2  # no table of dashes


def test_consistency_against_http_500_names_the_reason_and_the_server_s_request_count(
    answered: Path,
) -> None:
    script = _failing()
    with OpenAIServer(script) as server:
        model = f"openai-compatible:{server.url}#vlm"
        result = CliRunner().invoke(
            app, ["consistency", str(answered), "--model", model, "--max-attempts", "3"]
        )
    assert result.exit_code == 1, result.output
    assert len(script.log) == ITEMS * 3
    first = result.output.splitlines()[0]
    assert f"failed {ITEMS}" in first and f"requests_sent {ITEMS * 3}" in first and "valid 0" in first
    assert first.endswith("BackendError: gave up after 3 attempts: HTTP 500: Error code: 500 - injected 500")
    assert "| items |" not in result.output


def test_a_second_judge_process_on_the_same_store_is_refused_before_sending(answered: Path) -> None:
    script = ServerScript(answer=lambda text: judge_reply((80, 60, 40)))
    with OpenAIServer(script) as server:
        name = f"openai-compatible:{server.url}#j"
        folder = answered / "analysis" / "judge" / model_slug(endpoint_label(name))
        with run_lock(folder, "judge"):  # the first judge process, still running
            result = CliRunner().invoke(app, ["judge", str(answered), "--judge", name])
        assert result.exit_code == 2, result.output
        assert script.log == []  # nothing was sent twice
        assert result.output.strip().splitlines() == [
            f"error: another judge process holds {folder / 'run.lock'} (pid {os.getpid()}); "
            "wait for it to finish"
        ]
        again = CliRunner().invoke(app, ["judge", str(answered), "--judge", name])
    assert again.exit_code == 0, again.output  # the lock was released with its holder
    assert len(script.answered()) == ITEMS


def test_a_second_consistency_process_on_the_same_store_is_refused(answered: Path) -> None:
    script = ServerScript(answer=lambda text: "Consistent")
    with OpenAIServer(script) as server:
        name = f"openai-compatible:{server.url}#vlm"
        folder = answered / "analysis" / "consistency" / model_slug(name)
        with run_lock(folder, "consistency"):
            result = CliRunner().invoke(app, ["consistency", str(answered), "--model", name])
    assert result.exit_code == 2 and script.log == [], result.output
    assert f"another consistency process holds {folder / 'run.lock'}" in result.output


def _calls(analysis: str, run_dir: Path, **params: object) -> list[tuple[int, int]]:
    from spatialbench.analysis.registry import ANALYSES
    from spatialbench.api.sync import run_sync
    from spatialbench.runs.folder import open_run

    calls: list[tuple[int, int]] = []
    folder = open_run(run_dir, scored=True)
    run_sync(ANALYSES.get(analysis).arun(folder, progress=lambda d, t: calls.append((d, t)), **params))
    return calls


def test_judge_reports_progress_per_judgement_up_to_items_times_judges(answered: Path) -> None:
    with (
        OpenAIServer(ServerScript(answer=lambda text: judge_reply((80, 60, 40)))) as a,
        OpenAIServer(ServerScript(answer=lambda text: judge_reply((70, 40, 20)))) as b,
    ):
        judges = (f"openai-compatible:{a.url}#a", f"openai-compatible:{b.url}#b")
        calls = _calls("judge", answered, judges=judges)
    assert calls[0] == (0, 2 * ITEMS) and calls[-1] == (2 * ITEMS, 2 * ITEMS)
    assert [d for d, _ in calls] == list(range(2 * ITEMS + 1))  # one step per judgement


def test_consistency_reports_progress_per_item_resumed_ones_too(answered: Path) -> None:
    with OpenAIServer(ServerScript(answer=lambda text: "Consistent")) as server:
        name = f"openai-compatible:{server.url}#vlm"
        first = _calls("consistency", answered, model=name)
        second = _calls("consistency", answered, model=name)  # all stored: nothing sent, still counted
    assert first[0] == (0, ITEMS) and first[-1] == (ITEMS, ITEMS) and len(first) == ITEMS + 1
    assert second == first


def test_a_second_judge_while_the_first_process_is_sending_is_refused(answered: Path) -> None:
    script = ServerScript(answer=lambda text: judge_reply((80, 60, 40)), hold_after=0)  # hold every request
    with OpenAIServer(script) as server:
        name = f"openai-compatible:{server.url}#j"
        # one request in flight: it is held, so the server's log cannot grow by the first process's own
        # later requests (under load they arrived after the count was read, and the test failed)
        command = [sys.executable, "-m", "spatialbench.cli.main", "judge", str(answered), "--judge", name,
                   "--concurrency", "1"]
        first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while not script.log:  # the first process is sending (its requests held by the server)
                assert time.monotonic() < deadline and first.poll() is None, "the first judge never sent"
                time.sleep(0.05)
            held = len(script.log)
            second = CliRunner().invoke(app, ["judge", str(answered), "--judge", name])
            assert second.exit_code == 2, second.output
            assert f"error: another judge process holds {answered / 'analysis' / 'judge'}" in second.output
            assert f"(pid {first.pid})" in second.output
            time.sleep(0.2)
            assert len(script.log) == held  # the second sent nothing
        finally:
            first.kill()
            first.wait()
