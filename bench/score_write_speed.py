"""Time the table, interval and write part of ``spatialbench score`` (issue 25: 1M predictions), in-process.

The part after the responses are scored: ``result_from_rows`` (the VSI-Bench table and one per dataset),
``render_markdown`` (intervals) and ``write_scores`` (``scores.json``, ``items.csv``, ``scores.md``).

``--prepare``: scores the annotations and predictions once (``spatialbench.api.scoring.score``, as the CLI
does) and pickles the per-item rows and the result's other fields to ``--rows``. Then, per round and
alternately for each ``--src`` folder, a child process with ``PYTHONPATH`` set to it loads the pickle and
times each step ``--repeat`` times (CPU s, ``time.process_time``; every repeat builds its tables afresh, so
no interval is reused from the one before), writing into ``--out/<n>``; the parent prints each step's
CPU range per source with the 1-minute load average, and checks the files against ``--reference`` (a
folder the CLI wrote) byte for byte.

Usage: .venv/bin/python bench/score_write_speed.py --rows /tmp/rows.pkl [--prepare -a test.jsonl -p
       predictions.jsonl] --src OLD_SRC --src NEW_SRC [--rounds 3] [--repeat 1] [--reference DIR]
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

FILES = ("scores.json", "items.csv", "scores.md")
STEPS = ("result_from_rows", "render_markdown", "write_scores")
KEPT = ("skipped_rows", "warnings", "pruning", "item_count", "not_applicable", "filtered_responses",
        "unmatched_predictions")
"""Result fields set after the tables were made (``api.scoring``), restored as they were."""


def prepare(annotations: Path, predictions: Path, rows: Path) -> None:
    """Score the inputs once as the CLI does; pickle what :func:`child` rebuilds the result from."""
    from spatialbench.api.scoring import score

    result = score("vsibench", annotations, predictions).result
    fields = {name: getattr(result, name) for name in KEPT}
    with rows.open("wb") as handle:
        pickle.dump({"rows": result.rows, "extract": result.extract, "mra": result.mra,
                     "errors": result.data_errors, "fields": fields}, handle, protocol=5)


def child(rows: Path, out: Path, repeat: int) -> None:
    """Time each step ``repeat`` times on the pickled rows; print ``CPU {step: [s, ...]}``."""
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.scoring.output import render_markdown, write_scores
    from spatialbench.scoring.scorer import result_from_rows

    with rows.open("rb") as handle:
        saved = pickle.load(handle)
    rules = get_benchmark("vsibench").scoring
    times: dict[str, list[float]] = {step: [] for step in STEPS}
    for run in range(repeat):
        start = time.process_time()
        result = result_from_rows(rules, saved["extract"], saved["mra"], saved["rows"], saved["errors"],
                                  set(saved["fields"]["unmatched_predictions"]))
        result = replace(result, **saved["fields"])
        marks = [start, time.process_time()]
        render_markdown(result)
        marks.append(time.process_time())
        write_scores(result, out / str(run))
        marks.append(time.process_time())
        for step, (a, b) in zip(STEPS, zip(marks, marks[1:], strict=False), strict=True):
            times[step].append(b - a)
        del result
    print("CPU " + json.dumps(times))


def run_child(src: Path, rows: Path, out: Path, repeat: int) -> dict[str, list[float]]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, __file__, "--child", "--rows", str(rows), "--out", str(out),
               "--repeat", str(repeat)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{src}: child failed:\n{done.stderr[-3000:]}")
    line = [text for text in done.stdout.splitlines() if text.startswith("CPU ")][-1]
    found: dict[str, list[float]] = json.loads(line[4:])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=Path, required=True)
    parser.add_argument("--prepare", action="store_true")
    parser.add_argument("-a", "--annotations", type=Path)
    parser.add_argument("-p", "--predictions", type=Path)
    parser.add_argument("--src", type=Path, action="append", default=[])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--reference", type=Path)
    parser.add_argument("--child", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.child:
        child(args.rows, args.out, args.repeat)
        return
    if args.prepare:
        prepare(args.annotations, args.predictions, args.rows)
    times: dict[Path, dict[str, list[float]]] = {src: {step: [] for step in STEPS} for src in args.src}
    loads: dict[Path, list[float]] = {src: [] for src in args.src}
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds):
            for k, src in enumerate(args.src):
                out = Path(folder) / f"{k}-{round_}"
                loads[src].append(os.getloadavg()[0])
                for step, values in run_child(src, args.rows, out, args.repeat).items():
                    times[src][step].extend(values)
                if args.reference is not None:
                    same = all(filecmp.cmp(out / str(run) / name, args.reference / name, shallow=False)
                               for run in range(args.repeat) for name in FILES)
                    print(f"round {round_} {src}: files {'identical to' if same else 'DIFFER from'} "
                          f"{args.reference}", flush=True)
    for src, steps in times.items():
        total = [sum(parts) for parts in zip(*steps.values(), strict=True)]
        shown = ", ".join(f"{step} {min(v):.2f}-{max(v):.2f}" for step, v in steps.items())
        print(f"{src}: {shown}; total {min(total):.2f}-{max(total):.2f} s CPU "
              f"(load {min(loads[src]):.2f}-{max(loads[src]):.2f}, {time.strftime('%H:%M')})")


if __name__ == "__main__":
    main()
