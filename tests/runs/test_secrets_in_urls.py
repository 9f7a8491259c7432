"""A key in a URL query (``?api_key=``) is redacted wherever a run writes; an empty key is a set-up error."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.records.redaction import redact
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench

QUERY_KEY = "q9Z8y7X6w5V4-query-key"


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("openai-compatible:http://h:8/v1?api_key=abc123#m", "openai-compatible:http://h:8/v1?api_key=***#m"),
        ("https://x/y?foo=1&key=ZZZ&b=2", "https://x/y?foo=1&key=***&b=2"),
        ("GET https://g/v1?access_token=t0k&x-goog-api-key=q&alt=sse",
         "GET https://g/v1?access_token=***&x-goog-api-key=***&alt=sse"),
        ("https://a/b?keyword=sofa&monkey=1", "https://a/b?keyword=sofa&monkey=1"),  # not credentials
    ],
)
def test_query_credentials_are_masked(text: str, redacted: str) -> None:
    assert redact(text, []) == redacted


def test_key_in_model_url_query_reaches_no_file_or_output(tmp_path: Path) -> None:
    root = tmp_path / "data"
    answers = make_vsibench(root, n_videos=1, per_video=2)
    out = tmp_path / "run"
    script = ServerScript(answer=answer_script(answers))
    with OpenAIServer(script) as server:
        model = f"openai-compatible:{server.url}?api_key={QUERY_KEY}#m"
        result = CliRunner().invoke(app, ["run", "--benchmark", "vsibench", "--data", str(root), "--model",
                                          model, "--out", str(out), "--frames", "uniform:2"])
    assert QUERY_KEY not in result.output, result.output
    written = [p for p in out.rglob("*") if p.is_file()]
    assert {p.name for p in written} >= {"run.sqlite", "config.json"}
    for path in written:
        assert QUERY_KEY.encode() not in path.read_bytes(), path
    assert "api_key=***" in (out / "config.json").read_text()


def test_empty_key_variable_is_a_setup_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=1)
    monkeypatch.setenv("OPENAI_API_KEY", "")
    result = CliRunner().invoke(app, ["run", "--benchmark", "vsibench", "--data", str(root), "--model",
                                      "openai:gpt-4o", "--out", str(tmp_path / "o"), "--no-progress"])
    assert result.exit_code == 2
    assert result.output.strip() == (
        "error: environment variable OPENAI_API_KEY is not set (or is empty; needed for OpenAI)"
    )
    assert not (tmp_path / "o").exists()  # nothing written, no empty folder
