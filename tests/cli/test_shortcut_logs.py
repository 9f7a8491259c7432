"""``debias`` / ``stress-test`` with stderr in a log file write nothing there; on a terminal they draw a bar.

Issue 23 item 6: a debias run's log held sklearn's "least populated class" warning about 13 times and
progress lines. The benchmark here has a rare gold letter (D twice in 60 questions, fewer than k = 5), the
input that made ``StratifiedKFold`` warn. The command runs in a child process, as from a shell.
"""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

import spatialbench
from spatialbench.benchmarks import get_benchmark
from support.planted_shortcuts import planted_choices

SRC = str(Path(spatialbench.__file__).resolve().parents[1])  # this checkout's code in the child too


@pytest.fixture(scope="module")
def rare(tmp_path_factory: pytest.TempPathFactory) -> Path:
    items, _ = planted_choices(60, planted=True)
    seen = 0
    for k, item in enumerate(items):
        if item.ground_truth == "D":
            seen += 1
            if seen > 2:
                items[k] = item.model_copy(update={"ground_truth": "A"})
    assert [i.ground_truth for i in items].count("D") == 2
    folder = tmp_path_factory.mktemp("rare")
    get_benchmark("vsibench").write(items, folder)
    return folder


def _command(rare: Path, out: Path, name: str) -> list[str]:
    args = [sys.executable, "-m", "spatialbench.cli.main", name, "--data", str(rare), "--out", str(out)]
    small = ["--budget", "10", "--batch-size", "10", "--control-seeds", "1"]
    return args + (small if name == "debias" else [])


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "100", "PYTHONWARNINGS": "default"}


@pytest.mark.parametrize("name", ["debias", "stress-test"])
def test_stderr_to_a_file_stays_empty(rare: Path, tmp_path: Path, name: str) -> None:
    log = tmp_path / "stderr.log"
    with log.open("w") as err:
        done = subprocess.run(_command(rare, tmp_path / "out", name), stdout=subprocess.PIPE, stderr=err,
                              text=True, env=_env(), timeout=300, check=False)
    assert done.returncode == 0, log.read_text()
    text = log.read_text()
    assert "\r" not in text and "least populated" not in text and text == ""
    assert done.stdout.startswith("removed 10 of 60: " if name == "debias" else "**TsT-RF (text-only")


def test_a_terminal_stderr_gets_the_bar(rare: Path, tmp_path: Path) -> None:
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 0 columns: no bar
    child = subprocess.Popen(_command(rare, tmp_path / "out", "debias"), stdout=subprocess.DEVNULL,
                             stderr=follower, env=_env())
    os.close(follower)
    drawn = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        drawn += chunk
    os.close(leader)
    assert child.wait(timeout=300) == 0
    # 1 iteration, before, after, 1 seed: the bar ends at 4/4 stress-tests, redrawn in place with \r
    assert b"debias: 100%" in drawn and b"4/4" in drawn and b"\r" in drawn
    assert b"least populated" not in drawn
