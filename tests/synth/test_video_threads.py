"""The demo's h264 bytes do not depend on the machine's core count (same seed, same files anywhere).

x264 picks its thread count from the CPUs a process may use, and its output depends on it: the same
frames encoded with 1, 2 and 3+ threads give three different files (found while measuring issue 25).
A video encoded by a process allowed one CPU must equal one allowed every CPU of this machine.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.shared_data import REPO_ROOT

ENCODE = """
import hashlib, os, sys
if sys.argv[2] == "one":  # before PyAV loads: FFmpeg reads the CPU count once
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
from pathlib import Path
import numpy as np
from spatialbench.synth.streams import VideoWriter
rng = np.random.default_rng(0)
base = rng.integers(0, 255, (240, 320, 3), dtype=np.uint8)
writer = VideoWriter(Path(sys.argv[1]), 320, 240, fps=24)
for k in range(48):
    writer.write(np.roll(base, 3 * k, axis=1))
writer.close()
print(hashlib.sha256(Path(sys.argv[1]).read_bytes()).hexdigest())
"""


def _encode(path: Path, cpus: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", ENCODE, str(path), cpus], env=env, check=True,
                          capture_output=True, text=True)
    return done.stdout.strip()


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to compare against")
def test_video_bytes_are_the_same_on_one_cpu_and_on_all(tmp_path: Path) -> None:
    one, every = _encode(tmp_path / "one.mp4", "one"), _encode(tmp_path / "all.mp4", "all")
    assert one == every
    assert hashlib.sha256((tmp_path / "one.mp4").read_bytes()).hexdigest() == one
