"""One benchmark run against the loopback server with scripted answers, and its breakdown and report.

The image and video benchmark tests of issue 24 each run ``spatialbench run`` once against
:class:`~support.openai_server.OpenAIServer`, answering a request with the response whose key is in its
text, then read ``items.csv`` and check ``breakdown`` and ``report``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.openai_server import OpenAIServer, ServerScript

Responses = Mapping[str, str] | Callable[[str], str]


def scripted_run(benchmark: str, data: Path, out: Path, responses: Responses, *options: str) -> ServerScript:
    """Run ``benchmark`` on ``data`` into ``out`` (extra CLI ``options``); the server's script is returned.

    Each request gets ``responses(text)``, or the response of the first key of ``responses`` found in its
    text (OPENAI_API_KEY must be set).
    """
    answer = (
        responses
        if callable(responses)
        else (lambda text: next(r for key, r in responses.items() if key in text))
    )
    script = ServerScript(answer=answer)
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
            *options,
            "--model",
            f"openai-compatible:{server.url}#m",
        ]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return script


def run_items(out: Path) -> pd.DataFrame:
    """The run's ``items.csv``, indexed by item id (as text)."""
    return pd.read_csv(out / "items.csv", dtype={"id": str}).set_index("id")


def breakdown_and_report(out: Path, report: Path) -> tuple[str, str]:
    """Return the output of ``breakdown --run out`` and the ``index.html`` of ``report out`` (both exit 0)."""
    broken = CliRunner().invoke(app, ["breakdown", "--run", str(out)])
    assert broken.exit_code == 0, broken.output
    drawn = CliRunner().invoke(app, ["report", str(out), "--out", str(report)])
    assert drawn.exit_code == 0, drawn.output
    return broken.output, (report / "index.html").read_text()
