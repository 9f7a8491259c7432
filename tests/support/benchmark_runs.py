"""One benchmark run against the loopback OpenAI-compatible server, answered by question text.

The benchmark tests of issue 24 script one response per question (found by a piece of the prompt each
question's text holds) and read the run folder's scores; this does the run and returns what they check.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.openai_server import OpenAIServer, ServerScript


@dataclass(frozen=True)
class LoopbackRun:
    """A finished run: its folder, the server's script (``answered()``: the requests) and ``scores.json``."""

    out: Path
    script: ServerScript
    scores: dict[str, Any]


def run_scripted(
    benchmark: str,
    data: Path,
    responses: Mapping[str, str],
    out: Path,
    monkeypatch: pytest.MonkeyPatch,
    extra: Sequence[str] = (),
) -> LoopbackRun:
    """Run ``benchmark`` on ``data``; a request holding key ``q`` of ``responses`` gets ``responses[q]``.

    Asserts the run exits 0 (its output in the message otherwise).
    """
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    script = ServerScript(answer=lambda text: next(r for q, r in responses.items() if q in text))
    with OpenAIServer(script) as server:
        args = [
            "run",
            "--benchmark",
            benchmark,
            "--data",
            str(data),
            "--out",
            str(out),
            "--no-progress",
            "--model",
            f"openai-compatible:{server.url}#m",
            *extra,
        ]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return LoopbackRun(out, script, json.loads((out / "scores.json").read_text()))
