"""A real JSON-over-HTTP server on 127.0.0.1 that records every request and answers from a test's script.

Provider-neutral: the test's ``respond(recorded, index)`` returns ``(status, headers, payload)`` in the
provider's wire format (Gemini ``generateContent``, Anthropic ``messages``...), so one server serves every
SDK pointed at it through its base-URL option.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Recorded:
    """One request as the server saw it (header names lower-cased)."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


Reply = tuple[int, dict[str, str], dict[str, Any]]


class RecordingServer:
    """Context manager serving ``respond`` in a background thread; ``url`` is ``http://127.0.0.1:PORT``."""

    def __init__(self, respond: Callable[[Recorded, int], Reply]) -> None:
        self.log: list[Recorded] = []
        lock = threading.Lock()
        log = self.log

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                return None

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                recorded = Recorded("POST", self.path, headers, json.loads(raw or b"{}"))
                with lock:
                    log.append(recorded)
                    index = len(log) - 1
                status, extra_headers, payload = respond(recorded, index)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in extra_headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> RecordingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
