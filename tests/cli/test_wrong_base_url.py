"""Issue 26: a web page where the chat completion was due is named as HTML, with a base-URL hint."""

from pathlib import Path

from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import make_vsibench

PAGE = b"<!doctype html><html lang='en'><head><title>Open WebUI</title></head><body>sign in</body></html>"


def test_run_against_a_web_page_says_html_and_hints_at_the_base_url(tmp_path: Path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=2)
    script = ServerScript(answer=lambda text: PAGE, raw_type="text/html")
    with OpenAIServer(script) as server:
        model = f"openai-compatible:{server.url}#m"
        result = CliRunner().invoke(app, ["run", "--benchmark", "vsibench", "--data", str(root), "--out",
                                          str(tmp_path / "run"), "--no-progress", "--model", model])
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [
        f"error: {model} answered none of 2 item(s): BackendError: the endpoint returned an HTML page, not a "
        f"chat completion: {PAGE[:80].decode()!r}; is the base URL {server.url} right? (an "
        "OpenAI-compatible server's usually ends in /v1)"]
    assert len(script.log) == 2  # refused at once, not retried: a page does not turn into a completion
