"""``spatialbench serve`` running for real: Uvicorn in a thread on a free 127.0.0.1 port.

Two data sets: ``tiny_served`` (a small VSI-Bench folder of indexed h264 videos, one vision run answered
right by the loopback OpenAI-compatible server; fast) and ``demo_served`` (a 1-scene demo benchmark with a
vision run, for the browser tests). Each server gets a fresh work folder.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from spatialbench.api import run
from spatialbench.runs import RunConfig
from spatialbench.web import ServeConfig, create_app
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench

TOKEN = "test-token-0123456789abcdef"
SECRET = "sk-test-web-5f4e3d2c1b0a-never-shown"
CHROMIUM = Path("/usr/bin/chromium")


@dataclass(frozen=True)
class Served:
    """The running UI: base URL (no token), the token, and its data, runs and work folders."""

    url: str
    token: str
    data: Path
    runs: Path
    workdir: Path


def vision_run(data: Path, out: Path, answer: Callable[[str], str]) -> Path:
    """A ``uniform:4`` run of ``data`` answered by ``answer`` on the loopback server (key set: redacted)."""
    with OpenAIServer(ServerScript(answer=answer)) as server:
        config = RunConfig.model_validate({
            "data": {"benchmark": "vsibench", "path": str(data)},
            "model": {"name": f"openai-compatible:{server.url}#test-vlm", "concurrency": 4},
            "media": {"frames": "uniform:4", "max_pixels": 160 * 120},
            "out": str(out),
        })
        run(config, progress=False)
    return out


@contextmanager
def serving(data: Path, runs: Path, workdir: Path, benchmark: str = "vsibench") -> Iterator[Served]:
    """Run the app for ``data`` / ``runs`` until the block ends."""
    app = create_app(ServeConfig(data=data, workdir=workdir, token=TOKEN, runs=(runs,), benchmark=benchmark))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield Served(f"http://127.0.0.1:{port}", TOKEN, data, runs, workdir)
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def api_secret() -> str:
    """The API key set while the tiny run ran (it must appear on no page)."""
    return SECRET


@pytest.fixture(scope="module")
def tiny_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("web-tiny")
    answers = make_vsibench(root / "data", n_videos=2, per_video=3, n_frames=48)
    mp = pytest.MonkeyPatch()
    mp.setenv("OPENAI_API_KEY", SECRET)
    try:
        vision_run(root / "data", root / "runs" / "vision", answer_script(answers))
    finally:
        mp.undo()
    with serving(root / "data", root / "runs", tmp_path_factory.mktemp("work")) as served:
        yield served


@pytest.fixture(scope="module")
def demo_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    from spatialbench.demo import run_demo

    root = tmp_path_factory.mktemp("web-demo")
    run_demo(root / "demo", scenes=1, seed=0, seconds=6.0, log=lambda line: None)
    data = root / "demo" / "benchmark"
    vision_run(data, root / "runs" / "vision", lambda text: "A")
    with serving(data, root / "runs", tmp_path_factory.mktemp("work")) as served:
        yield served


@pytest.fixture(scope="module")
def wrong_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """8 VSI-Bench items and one run ``wrong`` answering every item "Z" (all wrong: a large error sample)."""
    root = tmp_path_factory.mktemp("web-wrong")
    make_vsibench(root / "data", n_videos=2, per_video=4, n_frames=12)
    vision_run(root / "data", root / "runs" / "wrong", lambda text: "Z")
    with serving(root / "data", root / "runs", tmp_path_factory.mktemp("work")) as served:
        yield served


@contextmanager
def chromium_browser() -> Iterator[Any]:
    """Headless Debian Chromium driven by Playwright (a missing browser or package fails under CI)."""
    from support.shared_data import missing

    if not CHROMIUM.is_file():
        missing(f"{CHROMIUM} not found: apt-get install -y chromium (.ci/run installs it)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()
