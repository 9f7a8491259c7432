"""An endpoint that answers nothing is one line naming it and its first error, exit 1, no table of zeros."""

from pathlib import Path

from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.openai_server import Fault, OpenAIServer, ServerScript
from support.vsi_data import make_vsibench


def _dead_port() -> str:
    import socket

    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def _run(root: Path, out: Path, url: str) -> list[str]:
    return ["run", "--benchmark", "vsibench", "--data", str(root), "--out", str(out), "--no-progress",
            "--model", f"openai-compatible:{url}#m", "--max-attempts", "1", "--timeout", "5"]


def test_run_against_a_server_failing_every_request_is_one_line_and_no_table(tmp_path: Path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=3)
    script = ServerScript(fault=lambda seen, text: Fault("500"))
    with OpenAIServer(script) as server:
        result = CliRunner().invoke(app, _run(root, tmp_path / "run", server.url))
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"error: openai-compatible:{server.url}#m answered none of 3 item(s): ")
    assert "injected 500" in lines[0]  # the server's first error, as it said it
    assert "Avg." not in result.output and "| all |" not in result.output  # no score table of zeros


def test_run_against_an_unreachable_endpoint_is_one_line(tmp_path: Path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=2)
    url = _dead_port()
    result = CliRunner().invoke(app, _run(root, tmp_path / "run", url))
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"error: openai-compatible:{url}#m answered none"), lines
    assert "Avg." not in result.output


def test_judge_against_a_dead_judge_prints_the_first_reason_with_the_count(tmp_path: Path) -> None:
    from spatialbench.analysis.judge.views import summary_text

    failures = [{"item": "view_centric_qa:0", "error": "EndpointUnreachableError: endpoint unreachable"},
                {"item": "view_centric_qa:1", "error": "EndpointUnreachableError: endpoint unreachable"}]
    part = {"valid": 0, "failed": 2, "requests_sent": 0, "failures": failures,
            "table": {g: {k: {"mean": None} for k in "123"} for g in ("correct", "incorrect")}}
    doc = {"judges": ["j"], "table": part["table"], "per_judge": {"j": part}, "reference": {"rows": {}},
           "agreement": {"pairwise": [], "krippendorff_alpha": None}, "items": {"judged": 2}}
    last = summary_text(doc).splitlines()[-1]
    assert last == ("j: 0 valid, 2 failed, 0 requests sent; first failure: item view_centric_qa:0: "
                    "EndpointUnreachableError: endpoint unreachable")
