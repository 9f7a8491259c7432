"""``--jpeg-quality`` with PNG frames changes nothing: the run says so instead of ignoring it silently."""

from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.openai_server import OpenAIServer
from support.vsi_data import make_vsibench

NOTE = "note: --jpeg-quality 50 applies to --image-format jpeg only; frames are sent as png"


def _run(tmp_path, server, *encoding: str):
    root = tmp_path / "data"
    if not root.exists():
        make_vsibench(root, n_videos=1, per_video=1)
    return CliRunner().invoke(app, [
        "run", "--benchmark", "vsibench", "--data", str(root), "--frames", "uniform:2",
        "--model", f"openai-compatible:{server.url}#m", "--out", str(tmp_path / "run"), *encoding,
    ])


def test_quality_with_png_is_noted_and_the_run_goes_on(tmp_path):
    with OpenAIServer() as server:
        result = _run(tmp_path, server, "--image-format", "png", "--jpeg-quality", "50")
    assert result.exit_code == 0, result.output
    assert NOTE in result.output and len(server.script.log) == 1


def test_quality_with_jpeg_is_not_noted(tmp_path):
    with OpenAIServer() as server:
        result = _run(tmp_path, server, "--image-format", "jpeg", "--jpeg-quality", "50")
    assert result.exit_code == 0, result.output
    assert "note: --jpeg-quality" not in result.output
