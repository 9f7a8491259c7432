"""Time ``spatialbench score`` on 1,000,000 VSI-Bench predictions through the CLI (goal: <= 15 s CPU).

Builds N items over all 10 official question types (the answer mix of ``bench/score_speed.py``), writes
them as files the CLI reads — annotations ``test.jsonl`` and ``test.parquet``, predictions in our own
JSONL (``{"id", "response"}``) and as an lmms-eval ``samples_vsibench.jsonl`` log (the item under the
metric key, as lmms-eval 0.7.3 writes it) — then runs ``spatialbench score -a ... -p ... -o OUT`` in a
subprocess per combination and prints its wall time, CPU time (user + system) and peak RSS (``wait4``
rusage of that one child). CPU times are the steady figures on a shared machine.

``--stages`` also runs the CLI's steps in a fresh child process, timed one by one: load annotations
(``BenchmarkSpec.load_items``), load predictions (``read_predictions``, including its id / scene+question
join), score (``score_items``) and write (``render_markdown`` + ``write_scores``).

``--src OTHER_SRC`` compares this checkout with another one's ``src`` folder (e.g. a worktree of main), in
one session: per repeat, alternately, each one's CLI (CPU s and wall s) and its steps (``--stages``, CPU s
each) in a child process with ``PYTHONPATH`` set to that ``src``; then per tree the ranges side by side with
the 1-minute load average (``os.getloadavg``) before and after its runs, the parser floor (orjson parsing
the same annotation and prediction lines in this process, results dropped, and kept) and each total's
ratio to it, and whether the two trees wrote byte-identical ``scores.json`` / ``items.csv`` / ``scores.md``.

``--cli-only`` (with ``--src``) leaves out the steps' child processes: half the time on a busy machine.
With ``--src`` the inputs are JSONL annotations and predictions unless ``--annotations`` /
``--predictions`` name others (each combination compared in turn); peak RSS is printed per tree.

``--data DIR`` writes the input files there and keeps them; ``--keep DIR`` keeps each run's output
folder under DIR (``DIR/<annotations>-<predictions>/``), so the files of two versions can be compared
byte for byte (``cmp``).

Usage: .venv/bin/python bench/score_cli_speed.py [--n 1000000] [--seed 0] [--repeat 2] [--stages]
       [--annotations jsonl,parquet] [--predictions jsonl,lmms-eval] [--keep DIR] [--data DIR]
       [--src OTHER_SRC [--cli-only]]
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

MCA = ("object_rel_direction_easy", "object_rel_direction_medium", "object_rel_direction_hard",
       "object_rel_distance", "route_planning", "obj_appearance_order")
NA = ("object_abs_distance", "object_counting", "object_size_estimation", "room_size_estimation")
OPTIONS = ["A. left", "B. right", "C. back", "D. front-left"]
LETTER_FORMS = ["{l}", "{l}.", "({l})", "The answer is {l}.", "**{l}**", "{l}. {t}", "Answer: {l}", "{t}"]
NUMBER_FORMS = ["{v:.1f}", "about {v:.1f} meters", "{c:.0f} cm", "{v:.2f}", "{v:.1f} m", "I think {v:.1f}."]
CLI = Path(sys.executable).with_name("spatialbench")
HERE_SRC = Path(__file__).resolve().parent.parent / "src"
STAGES = ("load annotations", "load predictions+join", "score", "write")


def build(n: int, seed: int) -> tuple[list[dict], list[str]]:
    """Return ``n`` official-schema records and one response text each (seeded)."""
    rng = np.random.default_rng(seed)
    tasks = [*MCA, *NA]
    records, texts = [], []
    for k in range(n):
        task = tasks[k % len(tasks)]
        record = {"id": k, "dataset": ("arkitscenes", "scannet", "scannetpp")[k % 3],
                  "scene_name": f"s{k % 288}", "question_type": task, "question": f"Q{k} (in meters)?",
                  "options": None}
        if task in MCA:
            record["options"] = OPTIONS
            record["ground_truth"] = "ABCD"[int(rng.integers(4))]
            letter = "ABCD"[int(rng.integers(4))]
            text = str(rng.choice(LETTER_FORMS)).format(l=letter, t=OPTIONS["ABCD".index(letter)][3:])
        else:
            truth = round(float(rng.uniform(0.3, 9.0)), 1)
            record["ground_truth"] = str(truth)
            value = truth * float(rng.uniform(0.5, 1.5))
            text = str(rng.choice(NUMBER_FORMS)).format(v=value, c=value * 100)
        records.append(record)
        texts.append(text)
    return records, texts


def input_paths(folder: Path) -> dict[str, Path]:
    """Return the input files in ``folder`` by name."""
    return {"jsonl": folder / "test.jsonl", "parquet": folder / "test.parquet",
            "pred-jsonl": folder / "predictions.jsonl", "pred-lmms-eval": folder / "samples_vsibench.jsonl"}


def write_inputs(folder: Path, records: list[dict], texts: list[str]) -> dict[str, Path]:
    """Write the annotation and prediction files; return them by name."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    paths = input_paths(folder)
    with paths["jsonl"].open("w", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in records)
    pq.write_table(pa.Table.from_pylist(records), paths["parquet"])
    with paths["pred-jsonl"].open("w", encoding="utf-8") as f:
        pairs = zip(records, texts, strict=True)
        f.writelines(json.dumps({"id": r["id"], "response": t}) + "\n" for r, t in pairs)
    with paths["pred-lmms-eval"].open("w", encoding="utf-8") as f:
        for k, (r, t) in enumerate(zip(records, texts, strict=True)):
            sample = {"doc_id": k, "target": r["ground_truth"], "filtered_resps": t,
                      "vsibench_overall": {**r, "prediction": t}}
            f.write(json.dumps(sample) + "\n")
    return paths


def timed_child(command: list[str], log: Path) -> tuple[int, float, float, float]:
    """Run ``command`` (output to ``log``); return its exit code, wall s, CPU s and peak RSS (MB)."""
    start = time.perf_counter()
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def stages(annotations: Path, predictions: Path, out: Path) -> None:
    """Run the CLI's steps in this process, printing each one's wall and CPU time (``--stage-child``)."""
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.scoring.output import render_markdown, write_scores
    from spatialbench.scoring.predictions import read_predictions
    from spatialbench.scoring.scorer import score_items

    spec = get_benchmark("vsibench")
    clock = [time.perf_counter(), time.process_time()]
    parts = []

    def lap(name: str) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        parts.append(f"{name} {wall - clock[0]:.2f}/{cpu - clock[1]:.2f} (peak {peak:.0f} MB)")
        clock[:] = [wall, cpu]

    items = spec.load_items(annotations)
    lap("load annotations")
    read = read_predictions(predictions, items)
    lap("load predictions+join")
    result = score_items(items, read.responses, spec.scoring, extract=None, mra="official")
    lap("score")
    render_markdown(result)
    write_scores(result, out)
    lap("write")
    print("  stages (wall/CPU s, peak RSS so far): " + ", ".join(parts))
    print("CPU " + json.dumps([float(part.split(" ")[-4].split("/")[1]) for part in parts]))


def parser_floor(annotations: Path, predictions: Path, keep: bool = False) -> float:
    """Return the CPU s orjson takes to parse every line of both files (GC paused).

    ``keep``: the parsed objects are held in a list until the end (as a scorer holds its rows), not dropped.
    """
    import gc

    import orjson

    gc.disable()
    start, held = time.process_time(), []
    for path in (annotations, predictions):
        with path.open("rb") as handle:
            for line in handle:
                record = orjson.loads(line)
                if keep:
                    held.append(record)
    cpu = time.process_time() - start
    del held
    gc.enable()
    return cpu


def child_cpu(src: Path, command: list[str], log: Path) -> tuple[float, float, list[float], float]:
    """Run ``command`` with ``PYTHONPATH=src``; return CPU s, wall s, the ``CPU [...]`` line's numbers and
    peak RSS (MB)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    start = time.perf_counter()
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{src}: {command[-5:]} failed:\n{log.read_text()[-2000:]}")
    stage_lines = [line for line in log.read_text().splitlines() if line.startswith("CPU [")]
    stages = json.loads(stage_lines[-1][4:]) if stage_lines else []
    return usage.ru_utime + usage.ru_stime, wall, stages, usage.ru_maxrss / 1024


def span(values: list[float], digits: int = 2) -> str:
    return f"{min(values):.{digits}f}-{max(values):.{digits}f}"


def compare(args: argparse.Namespace, paths: dict[str, Path], folder: Path) -> None:
    """``--src``: this checkout and ``args.src`` side by side (module docstring), per input combination."""
    for ann in args.annotations.split(","):
        for pred in args.predictions.split(","):
            # the floor parses JSONL lines: the annotations' JSONL file (the same rows) for Parquet too
            floor_of = [paths["jsonl"], paths[f"pred-{pred}"]]
            compare_one(args, f"{ann}-{pred}", [paths[ann], paths[f"pred-{pred}"]], floor_of, folder)


def compare_one(args: argparse.Namespace, label: str, inputs: list[Path], floor_of: list[Path],
                folder: Path) -> None:
    sources = {"this": HERE_SRC, "other": args.src.resolve()}
    outs = {name: (args.keep or folder) / f"{label}-{name}" for name in sources}
    cli = [sys.executable, "-c", "from spatialbench.cli.main import app; app()", "score",
           "-a", str(inputs[0]), "-p", str(inputs[1]), "-o"]
    runs: dict[str, list[tuple[float, float, list[float], float]]] = {name: [] for name in sources}
    loads: dict[str, list[float]] = {name: [] for name in sources}
    floors, kept = [], []
    for _ in range(args.repeat):
        for name, src in sources.items():
            loads[name].append(os.getloadavg()[0])
            total, wall, _, rss = child_cpu(src, [*cli, str(outs[name])], folder / "cli.log")
            stage = [sys.executable, __file__, "--stage-child", *map(str, inputs), str(folder / "stage-out")]
            steps = [] if args.cli_only else child_cpu(src, stage, folder / "stage.log")[2]
            runs[name].append((total, wall, steps, rss))
            loads[name].append(os.getloadavg()[0])
        floors.append(parser_floor(*floor_of))
        kept.append(parser_floor(*floor_of, keep=True))
    floor = min(floors)
    print(f"{args.n:,} predictions ({label}), {args.repeat} runs each (min-max), alternating; "
          f"{os.cpu_count()} cores")
    print(f"  parser floor (orjson, annotation + prediction lines, CPU s): {span(floors)} "
          f"({span(kept)} with the parsed objects kept)")
    for name, src in sources.items():
        totals, walls = [r[0] for r in runs[name]], [r[1] for r in runs[name]]
        steps = "not run (--cli-only)" if args.cli_only else ", ".join(
            f"{s} {span([r[2][k] for r in runs[name]])}" for k, s in enumerate(STAGES))
        print(f"  {name} ({src}): CLI {span(totals)} s CPU ({min(totals) / floor:.1f}-"
              f"{max(totals) / floor:.1f}x the floor), {span(walls)} s wall, peak RSS "
              f"{span([r[3] for r in runs[name]], 0)} MB, load average {span(loads[name])}; "
              f"steps (CPU s): {steps}")
    same = all(filecmp.cmp(outs["this"] / f, outs["other"] / f, shallow=False)
               for f in ("scores.json", "items.csv", "scores.md"))
    print(f"  output files of the two: {'byte-identical' if same else 'DIFFERENT'}")


def run_all(args: argparse.Namespace, paths: dict[str, Path], folder: Path) -> None:
    for ann in args.annotations.split(","):
        for pred in args.predictions.split(","):
            label = f"{ann}-{pred}"
            out = (args.keep / label) if args.keep else folder / f"out-{label}"
            inputs = [str(paths[ann]), str(paths[f"pred-{pred}"])]
            command = [str(CLI), "score", "-a", inputs[0], "-p", inputs[1], "-o", str(out)]
            figures = []
            for _ in range(args.repeat):
                code, wall, cpu, rss = timed_child(command, folder / "cli.log")
                if code != 0:
                    sys.exit(f"{label}: exit {code}:\n{(folder / 'cli.log').read_text()[-2000:]}")
                figures.append((wall, cpu, rss))
                print(f"score CLI, {args.n:,} predictions, annotations {ann}, predictions {pred}: "
                      f"{wall:.2f} s wall, {cpu:.2f} s CPU, peak RSS {rss:.0f} MB", flush=True)
            walls, cpus = [f[0] for f in figures], [f[1] for f in figures]
            print(f"  best {min(walls):.2f} s wall (spread {max(walls) - min(walls):.2f}), "
                  f"best {min(cpus):.2f} s CPU (spread {max(cpus) - min(cpus):.2f}), "
                  f"peak RSS {max(f[2] for f in figures):.0f} MB")
            if args.stages:
                child = [sys.executable, __file__, "--stage-child", *inputs, str(folder / "stage-out")]
                subprocess.run(child, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="items (and predictions) to build")
    parser.add_argument("--seed", type=int, default=0, help="seed of the built items and responses")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each combination (of each tree)")
    parser.add_argument("--annotations", help="annotation files to score: jsonl, parquet, comma-separated "
                        "(default jsonl,parquet; with --src jsonl)")
    parser.add_argument("--predictions", help="prediction files: jsonl, lmms-eval, comma-separated "
                        "(default jsonl,lmms-eval; with --src jsonl)")
    parser.add_argument("--stages", action="store_true", help="also time the CLI's steps, one by one")
    parser.add_argument("--keep", type=Path, help="keep each run's output folder under this folder")
    parser.add_argument("--data", type=Path, help="write the input files here (kept) instead of a temp dir")
    parser.add_argument("--src", type=Path, help="compare with this other checkout's src folder")
    parser.add_argument("--cli-only", action="store_true", help="--src: time the CLI only, not its steps")
    parser.add_argument("--stage-child", nargs=3, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.annotations = args.annotations or ("jsonl" if args.src else "jsonl,parquet")
    args.predictions = args.predictions or ("jsonl" if args.src else "jsonl,lmms-eval")
    if args.stage_child:
        stages(*args.stage_child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        inputs = args.data or folder
        inputs.mkdir(parents=True, exist_ok=True)
        start, made = time.perf_counter(), inputs / "inputs.txt"
        if made.is_file() and made.read_text() == f"{args.n} {args.seed}":  # --data: written before
            paths = input_paths(inputs)
        else:
            paths = write_inputs(inputs, *build(args.n, args.seed))
            made.write_text(f"{args.n} {args.seed}")
        print(f"{args.n:,} items and predictions ready in {time.perf_counter() - start:.1f} s "
              f"({paths['jsonl'].stat().st_size / 1e6:.0f} MB annotations JSONL)", flush=True)
        (compare if args.src else run_all)(args, paths, folder)


if __name__ == "__main__":
    main()
