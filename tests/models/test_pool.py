"""Several OpenAI-compatible endpoints of one model (``URL1,URL2#MODEL``): dispatch, dead replicas drained."""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from spatialbench.api import run
from spatialbench.models import pool
from spatialbench.models.errors import BackendError
from spatialbench.models.resolve import load_backend
from spatialbench.runs import STORE_NAME, RunConfig
from support.configs import run_config
from support.openai_server import OpenAIServer, ServerScript, _handler, _Server
from support.vsi_data import answer_script, make_vsibench, question_tag


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("vsi")
    return root, make_vsibench(root, n_videos=3, per_video=8)


def _config(root: Path, urls: list[str], out: Path) -> RunConfig:
    return run_config(root, out, url=",".join(urls), frames="uniform:4",
                      model={"concurrency": 2, "timeout_s": 5.0, "retry_base_delay_s": 0.01})

def _endpoints(out: Path) -> tuple[Counter[str], list[str]]:
    with sqlite3.connect(out / STORE_NAME) as conn:
        rows = conn.execute("SELECT item_id, status, raw FROM results").fetchall()
    assert all(status == "ok" for _, status, _ in rows)
    return Counter(json.loads(raw)["endpoint"] for _, _, raw in rows), [item for item, _, _ in rows]


def _kill_when_held(server: OpenAIServer) -> threading.Thread:
    """Stop ``server`` (closing the requests it holds unanswered) once it holds one."""

    def watch() -> None:
        while not any(r.outcome == "held" for r in list(server.script.log)):
            time.sleep(0.005)
        server.__exit__(None, None, None)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_killed_replica_is_drained_and_the_run_completes(data, tmp_path: Path, caplog) -> None:  # type: ignore[no-untyped-def]
    root, answers = data
    dying = ServerScript(answer=answer_script(answers), latency_s=0.02, hold_after=3)
    survivor = ServerScript(answer=answer_script(answers), latency_s=0.02)
    with OpenAIServer(survivor) as b:
        a = OpenAIServer(dying).__enter__()
        watcher = _kill_when_held(a)
        summary = run(_config(root, [a.url, b.url], tmp_path / "run"), progress=False)
        watcher.join(5)
    assert summary.counts["ok"] == 24 and summary.counts["failed"] == 0 and summary.stopped is None
    per_endpoint, items = _endpoints(tmp_path / "run")
    # every item answered once: one stored answer each, and the two servers gave 24 answers in all
    assert sorted(items) == sorted(str(k) for k in range(24))
    assert any(r.outcome == "held" for r in dying.log)  # killed with requests in flight
    assert len(dying.answered()) == 3 and len(survivor.answered()) == 21
    assert per_endpoint == {a.url: 3, b.url: 21}
    tags = [question_tag(r.text) for r in dying.answered() + survivor.answered()]
    assert len(tags) == len(set(tags)) == 24
    # requests per endpoint reported when the run closes the pool
    assert f"{a.url}: 3 answered of " in caplog.text and "dead (drained)" in caplog.text
    assert f"{b.url}: 21 answered of 21 sent, healthy" in caplog.text


def test_requests_spread_over_healthy_endpoints(data, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root, answers = data
    scripts = [ServerScript(answer=answer_script(answers), latency_s=0.02) for _ in range(2)]
    with OpenAIServer(scripts[0]) as a, OpenAIServer(scripts[1]) as b:
        summary = run(_config(root, [a.url, b.url], tmp_path / "run"), progress=False)
    assert summary.counts["ok"] == 24
    per_endpoint, _ = _endpoints(tmp_path / "run")
    assert sum(per_endpoint.values()) == 24 and min(per_endpoint.values()) >= 8  # fewest in flight first
    config = json.loads((tmp_path / "run" / "config.json").read_text())
    assert config["backend"]["endpoints"] == [a.url, b.url]


def test_restarted_replica_rejoins_after_probation(data, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    root, answers = data
    monkeypatch.setattr(pool, "REVIVE_AFTER_S", 0.1)
    late_url = _closed_port_url()  # refused until the replica "restarts" on that port
    port = int(late_url.rsplit(":", 1)[1].split("/")[0])
    late = ServerScript(answer=answer_script(answers), latency_s=0.02)
    early = ServerScript(answer=answer_script(answers), latency_s=0.05)
    started: list[_Server] = []

    def restart_when_busy() -> None:
        while len(early.answered()) < 4:
            time.sleep(0.005)
        server = _Server(("127.0.0.1", port), _handler(late))
        started.append(server)
        server.serve_forever()

    with OpenAIServer(early) as b:
        thread = threading.Thread(target=restart_when_busy, daemon=True)
        thread.start()
        summary = run(_config(root, [late_url, b.url], tmp_path / "run"), progress=False)
    started[0].shutdown()
    started[0].server_close()
    assert summary.counts["ok"] == 24 and summary.stopped is None
    per_endpoint, items = _endpoints(tmp_path / "run")
    assert sorted(items) == sorted(str(k) for k in range(24))
    assert per_endpoint[late_url] == len(late.answered()) >= 1  # it rejoined and answered
    assert len(late.answered()) + len(early.answered()) == 24


def _closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def test_every_endpoint_dead_stops_the_run(data, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root, _ = data
    summary = run(_config(root, [_closed_port_url(), _closed_port_url()], tmp_path / "run"), progress=False)
    assert summary.stopped is not None and "every endpoint of the pool is unreachable" in summary.stopped
    assert summary.counts["ok"] == 0 and summary.counts.get("not_attempted", 0) > 0


def test_pool_names() -> None:
    pool = load_backend("openai-compatible:http://127.0.0.1:1/v1,http://127.0.0.1:2/v1#m")
    assert [e.url for e in pool.endpoints] == ["http://127.0.0.1:1/v1", "http://127.0.0.1:2/v1"]  # type: ignore[attr-defined]
    assert pool.describe()["model"] == "m" and pool.registered_as["name"] == "openai-compatible"  # type: ignore[index]
    for bad in ("http://127.0.0.1:1/v1,http://127.0.0.1:1/v1#m", "http://a/v1,ftp://b/v1#m"):
        with pytest.raises(BackendError):
            load_backend(f"openai-compatible:{bad}")


@pytest.mark.parametrize(
    ("urls", "why"),
    [
        ("http://127.0.0.1:8000/v1,http://127.0.0.1:99999/v1", "http://127.0.0.1:99999: Port out of range"),
        ("http://[::1:8000/v1,http://127.0.0.1:8001/v1", "http://[::1:8000: Invalid IPv6 URL"),
    ],
)
def test_a_pool_url_with_a_bad_port_or_bracket_is_a_backend_error(urls: str, why: str) -> None:
    with pytest.raises(BackendError) as raised:  # was a ValueError from urllib
        load_backend(f"openai-compatible:{urls}#m")
    assert why in str(raised.value)
