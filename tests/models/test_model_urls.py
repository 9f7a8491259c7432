"""A bad port or malformed URL in ``--model`` is one line, exit 2, before any folder is made."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.vsi_data import make_vsibench

BAD_URLS = ("http://127.0.0.1:99999/v1", "http://[::1:8000/v1")


@pytest.mark.parametrize("url", [*BAD_URLS, f"{BAD_URLS[0]},http://127.0.0.1:8001/v1"])
def test_bad_model_url_is_one_line_exit_2(url: str, tmp_path: Path) -> None:
    make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    args = ["run", "--benchmark", "vsibench", "--data", str(tmp_path / "data"), "--out", str(tmp_path / "o")]
    result = CliRunner().invoke(app, [*args, "--no-progress", "--model", f"openai-compatible:{url}#m"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and "URL" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()
