"""ReVSI's default uniform:128 on a budget's video (16 frames by design): every frame, no warning (issue 24).

The run used to print "uniform:128 asks for more frames than .../16_frame/scene0.mp4 has (16 frames): all of
its frames are sent"; a budget's video holds just the budget's frames, so that is the benchmark's intent.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks import test_revsi
from spatialbench.cli.main import app
from support.openai_server import OpenAIServer, ServerScript


def _run(data: Path, out: Path, *options: str) -> str:
    responses = {test_revsi._question(k): c[5] for k, c in enumerate(test_revsi.CASES)}
    script = ServerScript(answer=lambda text: next(r for key, r in responses.items() if key in text))
    with OpenAIServer(script) as server:
        args = ["run", "--benchmark", "revsi", "--data", str(data), "--out", str(out), "--no-progress",
                *options, "--model", f"openai-compatible:{server.url}#m"]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.slow
def test_a_budget_video_shorter_than_128_frames_is_no_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = test_revsi.write_release(tmp_path / "data")
    with caplog.at_level(logging.WARNING):
        output = _run(data, tmp_path / "run", "--option", "budget=16")
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert "asks for more frames" not in output
    assert output.startswith("8 items: 0 already answered, 8 answered now")
    with sqlite3.connect(tmp_path / "run" / "run.sqlite") as db:
        prompts = [json.loads(row[0]) for row in db.execute("SELECT prompt FROM results")]
    assert len(prompts) == 8  # every frame of the budget's video, each request
    assert all(p["media"][0]["frames"] == list(range(16)) for p in prompts)
