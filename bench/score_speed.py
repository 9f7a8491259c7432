"""Time scoring of 100,000 synthetic VSI-Bench predictions (goal: <= 2 s on this machine).

Wall time is the goal; CPU time is printed too because other jobs on a shared machine inflate wall time.

Builds 100,000 items over all 10 official question types and one response each, in a mix of answer
formats (bare letters and numbers, "The answer is (B).", "about 2.5 meters", "200 cm", ...), then times
``score_items`` (extraction + metrics + all tables) for each extraction mode, and ``write_scores``.

Usage: .venv/bin/python bench/score_speed.py [--n 100000] [--seed 0]
"""

from __future__ import annotations

import argparse
import tempfile
import time

import numpy as np

from spatialbench.benchmarks.vsibench import MCA_TASKS, NA_TASKS, SPEC, record_to_item
from spatialbench.scoring.output import write_scores
from spatialbench.scoring.scorer import score_items

LETTER_FORMS = ["{l}", "{l}.", "({l})", "The answer is {l}.", "**{l}**", "{l}. {t}", "Answer: {l}", "{t}"]
NUMBER_FORMS = ["{v:.1f}", "about {v:.1f} meters", "{c:.0f} cm", "{v:.2f}", "{v:.1f} m", "I think {v:.1f}."]


def build(n: int, seed: int):
    rng = np.random.default_rng(seed)
    tasks = [*MCA_TASKS, *NA_TASKS]
    items, responses = [], {}
    for k in range(n):
        task = tasks[k % len(tasks)]
        record = {"id": k, "dataset": ("arkitscenes", "scannet", "scannetpp")[k % 3],
                  "scene_name": f"s{k % 288}", "question_type": task, "question": f"Q{k} (in meters)?"}
        if task in MCA_TASKS:
            record["options"] = ["A. left", "B. right", "C. back", "D. front-left"]
            record["ground_truth"] = "ABCD"[int(rng.integers(4))]
            letter = "ABCD"[int(rng.integers(4))]
            option_text = record["options"]["ABCD".index(letter)][3:]
            text = str(rng.choice(LETTER_FORMS)).format(l=letter, t=option_text)
        else:
            truth = round(float(rng.uniform(0.3, 9.0)), 1)
            record["ground_truth"] = str(truth)
            value = truth * float(rng.uniform(0.5, 1.5))
            text = str(rng.choice(NUMBER_FORMS)).format(v=value, c=value * 100)
        items.append(record_to_item(record))
        responses[str(k)] = text
    return items, responses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    items, responses = build(args.n, args.seed)
    score_items(items[:100], responses, SPEC.scoring, extract="robust")  # warm-up: lazy imports, regexes
    for mode in ("official", "robust"):
        start, cpu = time.perf_counter(), time.process_time()
        result = score_items(items, responses, SPEC.scoring, extract=mode)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"score_items, {args.n:,} predictions, extract={mode}: {elapsed:.2f} s wall, {cpu:.2f} s CPU "
              f"(overall {result.table.average:.2f}, no answer {result.no_answer})")
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        write_scores(result, out)
        print(f"write_scores (scores.json, items.csv, scores.md): {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
