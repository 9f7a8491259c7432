"""A real OpenAI-compatible chat-completions server on 127.0.0.1 for tests and benchmarks.

It answers ``POST /v1/chat/completions`` with scripted text, adds latency, injects faults (429 with
``Retry-After``, 500, timeouts by answering late), can hold requests unanswered (to kill a client mid-run) and
logs every request it receives with the number of image parts it carried.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Fault:
    """An injected failure: ``kind`` is "429", "500" or "timeout" (answer after ``delay_s``)."""

    kind: str
    retry_after: float | None = None
    delay_s: float = 0.0


@dataclass
class LoggedRequest:
    """What the server saw: the user text, image parts, auth header, and the outcome."""

    text: str
    n_images: int
    authorization: str | None
    outcome: str  # "answered", "429", "500", "timeout", "held"
    body: dict[str, Any]


def user_text(body: dict[str, Any]) -> tuple[str, int]:
    """Concatenated text of all messages and the number of image parts in the request."""
    texts, images = [], 0
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
            continue
        for part in content or []:
            if part.get("type") == "text":
                texts.append(part["text"])
            elif part.get("type") in ("image_url", "input_image", "image"):
                images += 1
    return "\n".join(texts), images


def without_data_urls(data: bytes | bytearray, size: int) -> bytes:
    """The first ``size`` bytes of JSON text, every ``"data:..."`` string value cut to ``"data:"``.

    A quote not preceded by a backslash opens or closes a string; a string with a backslash in it (an
    escape, never in a data URL) makes the whole text go unchanged. The standalone server (a benchmark's
    far side of the network) then parses a few hundred bytes instead of megabytes of base64 per request;
    image parts are still counted.
    """
    pieces, start = [], 0
    while (hit := data.find(b'"data:', start, size)) != -1:
        end = data.find(b'"', hit + 6, size)
        if data[hit - 1 : hit] == b"\\" or end == -1 or data.find(b"\\", hit, end) != -1:
            return bytes(data[:size])
        pieces.append(data[start : hit + 6])
        start = end
    pieces.append(data[start:size])
    return b"".join(pieces)


@dataclass
class ServerScript:
    """Behaviour of the server.

    ``answer(text)`` gives the reply text (bytes: sent verbatim as the 200 body); ``answer_seen(text,
    n_images)``, when given, replaces it for a model whose answer depends on the images sent;
    ``fault(seen, text)`` may inject a fault for the ``seen``-th time
    (0-based) this exact text arrives; each answer starts ``latency_s`` after its request's headers
    arrived (reading and parsing the body count within it, as on a server with CPUs of its own: parsing
    a demo's 2.5 MB bodies on the client's 2 shared cores made every request ~14 ms longer, issue 25);
    after ``hold_after`` answered
    requests, further requests are held without an answer until the server stops. ``raw_type``: the
    Content-Type of a bytes reply (``text/html``: a web page at a wrong base URL).
    """

    answer: Callable[[str], str | bytes] = lambda text: "A"
    answer_seen: Callable[[str, int], str | bytes] | None = None
    fault: Callable[[int, str], Fault | None] = lambda seen, text: None
    latency_s: float = 0.0
    hold_after: int | None = None
    keep_bodies: bool = True
    keep_raw: bool = False  # keep each request body's bytes as received, in ``raw``
    raw_type: str = "application/json"
    log: list[LoggedRequest] = field(default_factory=list)
    raw: list[bytes] = field(default_factory=list)
    timeline: list[tuple[float, float]] = field(default_factory=list)  # (arrived, replied), monotonic s
    seen: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    release: threading.Event = field(default_factory=threading.Event)

    def answered(self) -> list[LoggedRequest]:
        """Requests that got a 200 answer."""
        with self.lock:
            return [r for r in self.log if r.outcome == "answered"]


def _handler(script: ServerScript) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            super().setup()
            # answer in one segment: with Nagle on, headers and body as two writes meet the client's
            # delayed ACK and every response waits ~40 ms
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return None

        def _reply(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def _body(self) -> dict[str, Any]:
            """The request's JSON; without ``keep_bodies``, image data URLs are cut before parsing."""
            size = int(self.headers.get("Content-Length", "0"))
            if script.keep_bodies:
                data = self.rfile.read(size)
                if script.keep_raw:
                    with script.lock:
                        script.raw.append(data)
                return dict(json.loads(data or b"{}"))
            buffer = getattr(self, "_buffer", None)  # one per connection, reused: no page faults per body
            if buffer is None or len(buffer) < size:
                buffer = self._buffer = bytearray(size)
            view, got = memoryview(buffer)[:size], 0
            while got < size and (n := self.rfile.readinto(view[got:])):
                got += n
            return dict(json.loads(without_data_urls(buffer, got) or b"{}"))

        def do_POST(self) -> None:
            arrived = self._arrived = time.monotonic()  # headers read: the request is in flight from here
            self._answer()
            with script.lock:
                script.timeline.append((arrived, time.monotonic()))

        def _answer(self) -> None:
            body = self._body()
            text, n_images = user_text(body)
            with script.lock:
                seen = script.seen.get(text, 0)
                script.seen[text] = seen + 1
                n_answered = sum(r.outcome == "answered" for r in script.log)
                hold = script.hold_after is not None and n_answered >= script.hold_after
                fault = None if hold else script.fault(seen, text)
                outcome = "held" if hold else (fault.kind if fault else "answered")
                script.log.append(
                    LoggedRequest(text, n_images, self.headers.get("Authorization"), outcome,
                                  body if script.keep_bodies else {})
                )
            if hold:
                script.release.wait()
                self.close_connection = True
                return
            due = self._arrived + script.latency_s - time.monotonic()
            time.sleep(max(0.0, due) + (fault.delay_s if fault else 0.0))
            if fault is not None and fault.kind in ("429", "500"):
                headers = {"Retry-After": f"{fault.retry_after:g}"} if fault.retry_after is not None else {}
                error = {"error": {"message": f"injected {fault.kind}", "type": "server_error"}}
                self._reply(int(fault.kind), error, headers)
                return
            reply = script.answer(text) if script.answer_seen is None else script.answer_seen(text, n_images)
            if isinstance(reply, bytes):  # a raw body (a proxy's HTML page, a broken server)
                self.send_response(200)
                self.send_header("Content-Type", script.raw_type)
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)
                return
            self._reply(
                200,
                {
                    "id": "chatcmpl-test",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model", "test"),
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "logprobs": None,
                            "message": {"role": "assistant", "content": reply},
                        }
                    ],
                    "usage": {
                        "prompt_tokens": len(text.split()) + 85 * n_images,
                        "completion_tokens": len(reply.split()),
                        "total_tokens": len(text.split()) + 85 * n_images + len(reply.split()),
                    },
                },
            )

    return Handler


class _Server(ThreadingHTTPServer):
    # the default listen backlog (5) drops connection bursts, costing clients a 1 s SYN retransmit
    request_queue_size = 256


class OpenAIServer:
    """Context manager running the server in a background thread; ``url`` is the ``/v1`` base URL."""

    def __init__(self, script: ServerScript | None = None) -> None:
        self.script = script or ServerScript()
        self._server = _Server(("127.0.0.1", 0), _handler(self.script))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> OpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.script.release.set()
        self._server.shutdown()
        self._server.server_close()


def random_faults(rate: float, seed: int = 0) -> Callable[[int, str], Fault | None]:
    """Fail a share ``rate`` of attempts at random (half 429 with ``Retry-After: 0.2``, half 500)."""
    import random

    rng, lock = random.Random(seed), threading.Lock()

    def fault(seen: int, text: str) -> Fault | None:
        with lock:
            draw, kind = rng.random(), rng.random()
        if draw >= rate:
            return None
        return Fault("429", retry_after=0.2) if kind < 0.5 else Fault("500")

    return fault


def main() -> None:
    """Serve until stdin closes: prints the base URL, then on exit one JSON line of outcome counts.

    Run as its own process (``python tests/support/openai_server.py --latency 0.2``) so that a client in
    another process does not share its interpreter lock.
    """
    import argparse
    import sys
    from collections import Counter

    parser = argparse.ArgumentParser()
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--failure-rate", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeline", help="write [arrived, replied] monotonic seconds per request (JSON)")
    args = parser.parse_args()
    script = ServerScript(
        latency_s=args.latency, fault=random_faults(args.failure_rate, args.seed), keep_bodies=False
    )
    with OpenAIServer(script) as server:
        print(server.url, flush=True)
        sys.stdin.read()
    if args.timeline:
        with open(args.timeline, "w") as f:
            json.dump(script.timeline, f)
    print(json.dumps(Counter(r.outcome for r in script.log)), flush=True)


if __name__ == "__main__":
    main()
