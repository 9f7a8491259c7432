"""Start ``spatialbench serve`` as a user would and read what it prints before it listens."""

from __future__ import annotations

import subprocess
import sys
import time


def serve_start_text(*args: str) -> str:
    """Return serve's stderr up to its "open http" line (or its exit), then stop it."""
    command = [sys.executable, "-m", "spatialbench.cli.main", "serve", *args]
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and server.stderr is not None:
            line = server.stderr.readline()
            lines.append(line)
            if "open http" in line or not line:
                break
    finally:
        server.terminate()
        server.wait(timeout=20)
    return "".join(lines)
