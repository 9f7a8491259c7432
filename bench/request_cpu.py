"""Client CPU per request against a slow API, beside the needed work (issue 25 item 2).

A loopback OpenAI-compatible server in its own process answers every request in ``--latency`` s (200 ms).
The client (``spatialbench.run``, the code of each ``--src`` in turn, alternated ``--repeats`` times in one
session) answers the items of ``--data`` (a VSI-Bench-format folder, e.g. a demo's ``benchmark``; default:
a 1-scene demo of 6 s) at ``--frames`` (uniform:32: the 640x480 demo frames make ~5 MB bodies) at
concurrency 1 and 16. Printed per run: the CPU seconds of the request phase (``Runner._execute``: user +
system, all threads) per item, the request bytes per item and the wall time; once, the needed work per
item (decoding each video, encoding each distinct frame, reading a synthetic video's visibility, in one
process, one after the other, with the code of the last ``--src``); the load average before and after.

Usage: .venv/bin/python bench/request_cpu.py [--src /work/main/src --src src] [--data DEMO/benchmark]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"

CLIENT = """
import json, resource, sys, time
import spatialbench.models.openai_compat as oc
import spatialbench.runs.runner as runner
from spatialbench.api import run
data, out, url, frames, concurrency = sys.argv[1:6]
sent, phase = [0], {}
real_streamed = oc._streamed
async def streamed(pieces):
    sent[0] += sum(map(len, pieces))
    async for chunk in real_streamed(pieces):
        yield chunk
oc._streamed = streamed
real_execute = runner.Runner._execute
async def execute(self, *args):
    usage = resource.getrusage(resource.RUSAGE_SELF)
    phase["cpu"], phase["wall"] = -(usage.ru_utime + usage.ru_stime), -time.perf_counter()
    try:
        return await real_execute(self, *args)
    finally:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        phase["cpu"] += usage.ru_utime + usage.ru_stime
        phase["wall"] += time.perf_counter()
runner.Runner._execute = execute
summary = run({"data": {"benchmark": "vsibench", "path": data},
               "model": {"name": f"openai-compatible:{url}#m", "concurrency": int(concurrency)},
               "media": {"frames": frames}, "out": out}, progress=False)
print(json.dumps({"ok": summary.counts.get("ok", 0), "bytes": sent[0], **phase}))
"""

NEEDED = """
import json, resource, sys
from spatialbench.benchmarks import get_benchmark
from spatialbench.media.sampling import parse_strategy
from spatialbench.media.video import sample_video
from spatialbench.media.visibility import find_visibility
from spatialbench.models.images import ImageFormat, _encode
data, frames = sys.argv[1:3]
items = list(get_benchmark("vsibench").load_items(data))
videos = sorted({ref.path for item in items for ref in item.media})
start = resource.getrusage(resource.RUSAGE_SELF)
for video in videos:
    path = video if video.startswith("/") else f"{data}/{video}"
    for pixels in sample_video(path, parse_strategy(frames)).pixels:
        _encode(pixels, ImageFormat.PNG, 90)
    find_visibility(path)
end = resource.getrusage(resource.RUSAGE_SELF)
cpu = end.ru_utime + end.ru_stime - start.ru_utime - start.ru_stime
print(json.dumps({"items": len(items), "videos": len(videos), "cpu": cpu}))
"""


def one_run(src: Path, data: Path, out: Path, concurrency: int, args: argparse.Namespace) -> dict[str, float]:
    """Run the items once with the client code of ``src``; return the client's figures."""
    server = subprocess.Popen(
        [sys.executable, str(TESTS / "support" / "openai_server.py"), "--latency", str(args.latency)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(TESTS)},
    )
    assert server.stdout is not None
    url = server.stdout.readline().strip()
    client = subprocess.run(
        [sys.executable, "-c", CLIENT, str(data), str(out), url, args.frames, str(concurrency)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(src.resolve())}, check=True,
    )
    server.communicate("")
    return dict(json.loads(client.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src", action="append", type=Path, help="client source folder (default: src)")
    parser.add_argument("--data", type=Path, help="a VSI-Bench-format folder (default: a 1-scene demo)")
    parser.add_argument("--frames", default="uniform:32", help="frame selection of the run")
    parser.add_argument("--latency", type=float, default=0.2, help="the server's answer time, seconds")
    parser.add_argument("--concurrency", type=int, action="append", help="default: 1 and 16")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each client and concurrency")
    args = parser.parse_args()
    sources = args.src or [ROOT / "src"]
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores; "
          f"{args.latency * 1000:.0f} ms, {args.frames}")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        data = args.data
        if data is None:
            sys.path.insert(0, str(TESTS))
            from support.demo_runs import demo_benchmark

            data = demo_benchmark(tmp)
        runs = 0
        for repeat in range(args.repeats):
            for concurrency in args.concurrency or [1, 16]:
                for src in sources:
                    runs += 1
                    f = one_run(src, data, tmp / f"run-{runs}", concurrency, args)
                    n = max(f["ok"], 1)
                    print(f"[{repeat + 1}] concurrency {concurrency:2d} {src}: {f['ok']} items; request "
                          f"phase {f['wall']:.2f} s wall, CPU {1000 * f['cpu'] / n:.1f} ms/item; "
                          f"{f['bytes'] / n / 1e6:.2f} MB sent/item")
        needed = json.loads(subprocess.run(
            [sys.executable, "-c", NEEDED, str(data), args.frames], capture_output=True, text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(sources[-1].resolve())},
        ).stdout.strip().splitlines()[-1])
        print(f"needed work: {needed['videos']} videos decoded, their frames encoded, visibility read: "
              f"{needed['cpu']:.2f} s CPU = {1000 * needed['cpu'] / needed['items']:.1f} ms/item")
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
