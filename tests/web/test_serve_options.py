"""Issue 26: ``serve --host`` and ``--runs`` values that were accepted but unusable, each one clear line.

The server itself is replaced by a recorder of uvicorn's bind arguments: what is checked is the command's
start (the URL it prints, what it refuses), not serving.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.vsi_data import make_vsibench


@pytest.fixture
def binds(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda application, **kwargs: calls.append(kwargs))
    return calls


@pytest.fixture
def data(tmp_path: Path) -> Path:
    make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    return tmp_path / "data"


def _serve(data: Path, workdir: Path, *extra: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, ["serve", "--data", str(data), "--workdir", str(workdir), *extra])


WARNING = "warning: listening on every interface ({}): whoever reaches it with the token can use it"


@pytest.mark.parametrize(("host", "url_host", "warning"), [
    ("::", "[::1]", WARNING.format("::")),
    ("::1", "[::1]", None),
    ("0.0.0.0", "0.0.0.0", WARNING.format("0.0.0.0")),
])
def test_the_printed_url_opens_in_a_browser(
    data: Path, tmp_path: Path, binds: list[dict[str, Any]], host: str, url_host: str, warning: str | None
) -> None:
    """``--host ::`` printed ``http://:::8765/``, which no browser opens."""
    result = _serve(data, tmp_path / "w", "--host", host, "--port", "8799")
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[:-1] == ([warning] if warning else [])
    assert lines[-1].startswith(f"spatialbench serve: open http://{url_host}:8799/?token=")
    assert binds == [{"host": host, "port": 8799, "log_level": "warning"}]


@pytest.mark.parametrize("host", ["", " "])
def test_an_empty_host_is_refused(data: Path, tmp_path: Path, binds: list[dict[str, Any]], host: str) -> None:
    """``--host ''`` bound every interface, with the warning "listening on :"."""
    result = _serve(data, tmp_path / "w", "--host", host)
    assert (result.exit_code, result.stderr.splitlines()) == (2, [
        f"error: --host {host!r}: give an address to bind: 127.0.0.1 (this machine only, the default), or "
        "0.0.0.0 / :: (every interface)"])
    assert binds == [] and not (tmp_path / "w").exists()


def test_runs_holding_no_readable_run_are_refused(
    data: Path, tmp_path: Path, binds: list[dict[str, Any]]
) -> None:
    """A --runs folder whose runs cannot be read showed no run and said nothing."""
    (tmp_path / "runs" / "a").mkdir(parents=True)
    (tmp_path / "runs" / "a" / "config.json").write_text('{"x": 1}')
    result = _serve(data, tmp_path / "w", "--runs", str(tmp_path / "runs"))
    assert (result.exit_code, result.stderr.splitlines()) == (2, [
        f"error: --runs {tmp_path / 'runs'}: none of its 1 run folder(s) can be read; first: "
        f"{tmp_path / 'runs' / 'a' / 'config.json'}: not a run configuration (KeyError: 'config')"])
    assert binds == [] and not (tmp_path / "w").exists()


def test_a_busy_port_is_one_line_before_any_url_and_port_0_prints_the_port_given(data, tmp_path, binds):
    # newcomer rounds (issues 22, 26): a busy port printed "open http://…?token=…", then uvicorn's
    # "ERROR: [Errno 98]", exit 3, and left the --workdir; --port 0 printed ":0"
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        result = _serve(data, tmp_path / "w1", "--port", str(busy))
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert f"cannot listen on 127.0.0.1 port {busy}" in lines[0] and "token" not in result.output
    assert not (tmp_path / "w1").exists() and binds == []
    result = _serve(data, tmp_path / "w2", "--port", "0")
    (call,) = binds
    assert result.exit_code == 0 and call["port"] > 0 and f":{call['port']}/?token=" in result.output


def test_data_of_another_benchmark_is_refused_not_served_empty(tmp_path: Path,
                                                               binds: list[dict[str, Any]]) -> None:
    # ReMindView data served under the default --benchmark vsibench gave an empty browse page and exit 0
    from benchmarks.mmsi_remindview_fixtures import build_remindview

    rmv = build_remindview(tmp_path / "rmv")
    result = _serve(rmv, tmp_path / "work")
    assert result.exit_code == 2 and binds == []
    line = result.output.strip()  # one line naming the table, the missing column and the benchmark it fits
    assert line.startswith(f"error: {rmv}/view_centric_qa.parquet: no column 'dataset' (columns: ")
    assert line.endswith("another benchmark's file? (its columns are those of --benchmark remindview)")
    assert _serve(rmv, tmp_path / "work2", "--benchmark", "remindview").exit_code == 0 and len(binds) == 1
