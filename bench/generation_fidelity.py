"""Generated vs official VSI-Bench questions (issue 10): per-task counts and exact reproduction.

Usage: .venv/bin/python bench/generation_fidelity.py [--seed N] [--seeds K] [--rules data|paper]
       [--draw-allocation fixed_total|independent]

Prints, for ``generate vsibench`` on the 288 scenes of ../shared/data/vsibench/meta_info, each task's
count beside the released test set's (and whether it is within 3 %), and for the drawn tasks (direction,
rel. distance) the independent draw's exact expectation the fixed-total draw hits (``expected_count`` of
the manifest, before the per-scene cap); with ``--seeds K`` also the counts of seeds 0..K-1, their mean
and spread (the independent draw moves direction and rel. distance counts by 3-9 % a seed, the default
fixed-total draw not at all; only rel. distance's cap of 16 a scene moves by a few questions).
Then, on the 5 scenes whose complete official question lists are in official_samples/gemini3flash_5scenes,
the share of official questions reproduced exactly (same text and answer; rel. distance also up to the
order of its choices), and the share the rules keep when nothing is sub-sampled ("rules keep": a rule
that rejects official questions is wrong, whatever the sampling). Then issue 10's statistics of each rule
(naming order, smallest answer, clearance, distance ratio, role orders, most questions per scene) for the
generated benchmark beside the official sample files, and the chance-frequency row (both definitions) on
subset_300, the 5 scenes and the generated benchmark beside the paper's.
"""

from __future__ import annotations

import argparse
import json
import statistics
from dataclasses import dataclass
from pathlib import Path

from spatialbench.generate.vsi import GenerationSettings, builtin_tasks, generate_vsibench
from spatialbench.generate.vsi.fidelity import count_rows, reproduced
from spatialbench.scene import load_meta_info

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "vsibench"
FIVE = DATA / "official_samples" / "gemini3flash_5scenes" / "questions"
UNLIMITED = {
    "caps": {},
    "rel_distance_draws": 10**9,
    "direction_triples": dict.fromkeys(("easy", "medium", "hard"), 10**9),
}


@dataclass(frozen=True)
class Rules:
    """Rules to generate with: ``name`` data (defaults) or paper (App. B.1); the draw allocation."""

    name: str = "data"
    draw_allocation: str = "fixed_total"

    def settings(self, seed: int, **extra: object) -> GenerationSettings:
        """These rules' settings with ``seed`` and ``extra`` fields."""
        extra = {"draw_allocation": self.draw_allocation, **extra}
        if self.name == "paper":
            return GenerationSettings.paper(seed=seed, **extra)
        return GenerationSettings.model_validate({"seed": seed, **extra})


def print_counts(scenes: dict, rules: Rules, seed: int, n_seeds: int) -> None:
    """Per-task generated vs official counts (and the spread over seeds)."""
    bench = generate_vsibench(scenes.values(), builtin_tasks(), rules.settings(seed))
    spread = (
        [
            count_rows(generate_vsibench(scenes.values(), builtin_tasks(), rules.settings(s)).manifest)
            for s in range(n_seeds)
        ]
        if n_seeds > 1
        else []
    )
    print(
        f"{'task':30s} {'generated':>9s} {'official':>8s} {'diff':>7s}  within 3%  {'expected':>8s}"
        + (f"  seeds 0-{n_seeds - 1}: counts, mean (sd), all within 3%" if spread else "")
    )
    for k, (task, generated, official, diff) in enumerate(count_rows(bench.manifest)):
        ok = "yes" if abs(diff) <= 0.03 else "NO"
        expected = bench.manifest["tasks"].get(task, {}).get("expected_count")
        line = f"{task:30s} {generated:9d} {official:8d} {100 * diff:+6.1f}%  {ok:9s}  {expected or '-':>8}"
        if spread:
            values = [rows[k][1] for rows in spread]
            every = "yes" if all(abs(rows[k][3]) <= 0.03 for rows in spread) else "NO"
            line += (
                f"  {'/'.join(map(str, values))}, {statistics.mean(values):.1f}"
                f" ({statistics.pstdev(values):.1f}), {every}"
            )
        print(line)
    removed = {t: e["removed"] for t, e in bench.manifest["tasks"].items()}
    print("removed per rule:", json.dumps(removed))


def five_scene_rows() -> list[dict]:
    """The official questions of the 5 complete scenes, meta-info tasks only."""
    rows = [r for f in sorted(FIVE.glob("*.json")) for r in json.loads(f.read_text())["questions"]]
    return [r for r in rows if r["question_type"] in builtin_tasks()]


def print_reproduction(scenes: dict, rules: Rules, seed: int) -> None:
    """Share of the 5 scenes' official questions generated exactly, and kept by the rules."""
    rows = five_scene_rows()
    five = [scenes[name] for name in sorted({r["scene_name"] for r in rows})]
    tasks = list(builtin_tasks())
    items = generate_vsibench(five, tasks, rules.settings(seed)).items
    every = generate_vsibench(five, tasks, rules.settings(seed, **UNLIMITED)).items
    exact, unordered, kept = (
        reproduced(rows, items),
        reproduced(rows, items, True),
        reproduced(rows, every, True),
    )
    print(f"\n5 scenes ({', '.join(s.scene_id for s in five)}): official questions reproduced")
    print(f"{'task':30s} {'official':>8s} {'exact':>7s} {'any choice order':>17s} {'rules keep':>11s}")
    for task in tasks:
        hit, total = exact.get(task, (0, 0))
        if total:
            print(
                f"{task:30s} {total:8d} {100 * hit / total:6.1f}% {100 * unordered[task][0] / total:16.1f}%"
                f" {100 * kept[task][0] / total:10.1f}%"
            )


def question_rows(items: list) -> list[dict]:
    """Generated items as rows of the official schema (what the official sample files hold)."""
    return [
        {
            "question_type": i.task,
            "scene_name": i.scene_id,
            "question": i.question,
            "options": list(i.options) or None,
            "ground_truth": i.ground_truth,
        }
        for i in items
    ]


def shape(rows: list[dict], scenes: dict) -> dict[str, object]:
    """The statistics of issue 10's rules over question rows (objects read back from the question text)."""
    import numpy as np

    from spatialbench.audit.parse import parse_question
    from spatialbench.generate.vsi.distances import category_distances
    from spatialbench.generate.vsi.fidelity import answer_text
    from spatialbench.scene.categories import scene_category

    later, answers, closest, ratio, orders = [], [], [], [], set()
    for row in {r["question"] + r["scene_name"]: r for r in rows}.values():
        scene, task = scenes[row["scene_name"]], row["question_type"]
        fields = parse_question(task, row["question"]) or {}
        names = {k: scene_category(scene, v) or v for k, v in fields.items()}
        rank = {c: k for k, c in enumerate(scene.counts)}
        if task == "object_abs_distance":
            later.append(rank[names["object_1"]] > rank[names["object_2"]])
            answers.append(float(row["ground_truth"]))
        elif task == "object_rel_distance":
            choices = [names[f"choice_{x}"] for x in "abcd"]
            d = category_distances(scene, [(names["category"], c) for c in choices], GenerationSettings())
            values = sorted(d.values())
            closest.append(
                d[
                    (
                        names["category"],
                        scene_category(scene, answer_text(row["options"], row["ground_truth"])),
                    )
                ]
            )
            ratio.append(values[1] / max(values[0], 1e-9))
        elif task.startswith("object_rel_direction"):
            roles = [rank[names[r]] for r in ("positioning", "orienting", "querying")]
            orders.add("".join(str(sorted(roles).index(x)) for x in roles))
    return {
        "abs. distance: first-named later in object_counts": f"{100 * np.mean(later):.1f} %",
        "abs. distance: smallest answer (m)": f"{min(answers):.1f}",
        "rel. distance: correct choice within 0.1 m": f"{100 * np.mean(np.array(closest) < 0.1):.1f} %",
        "rel. distance: median distance of the correct choice (m)": f"{np.median(closest):.2f}",
        "rel. distance: median 2nd-closest / closest": f"{np.median(ratio):.2f}",
        "rel. direction: role orders (object_counts ranks)": " ".join(sorted(orders)),
    }


def per_scene_max(rows: list[dict]) -> str:
    """Most questions one scene holds, per drawn task."""
    from collections import Counter

    tasks = (
        "object_abs_distance",
        "object_rel_distance",
        *(f"object_rel_direction_{x}" for x in ("easy", "medium", "hard")),
    )
    most = [
        max(Counter(r["scene_name"] for r in rows if r["question_type"] == t).values(), default=0)
        for t in tasks
    ]
    return "/".join(map(str, most))


def print_shape(scenes: dict, generated: list, official_five: list[dict]) -> None:
    """Issue 10's statistics: generated benchmark beside the official sample files."""
    subset = [
        json.loads(line) for line in (DATA / "official_samples" / "subset_300.jsonl").read_text().splitlines()
    ]
    mine, theirs = shape(question_rows(generated), scenes), shape(official_five + subset, scenes)
    print(f"\n{'rule statistic':58s} {'generated':>12s} {'official samples':>17s}")
    for key, value in mine.items():
        print(f"{key:58s} {value!s:>12s} {theirs[key]!s:>17s}")
    five = {s: scenes[s] for s in {r["scene_name"] for r in official_five}}
    same = question_rows([i for i in generated if i.scene_id in five])
    print(
        f"{'most per scene: abs/rel dist/dir easy/medium/hard (5 scenes)':58s} {per_scene_max(same):>12s}"
        f" {per_scene_max(official_five):>17s}"
    )
    print(f"{'most per scene over the 288 scenes':58s} {per_scene_max(question_rows(generated)):>12s}")


PAPER_FREQUENCY = [62.1, 32.0, 29.9, 33.1, 25.1, 47.9, 28.4, 25.2]  # Table 1, Chance Level (Frequency)


def print_frequency_rows(generated: list) -> None:
    """The chance-frequency row (both definitions) on the official samples and the generated benchmark."""
    from spatialbench.benchmarks.vsibench import SPEC, load_vsibench
    from spatialbench.scoring.baselines import BASELINES

    sets = {
        "subset_300": list(load_vsibench(DATA / "official_samples" / "subset_300.jsonl")),
        "5 scenes": list(load_vsibench(FIVE)),
        "generated (288 scenes)": generated,
    }
    print(
        "\nchance level (frequency), percent: Obj. Count, Abs. Dist., Obj. Size, Room Size, Rel. Dist., "
        "Rel. Dir., Route Plan, Appr. Order"
    )
    print(f"{'paper (Table 1)':50s} " + " ".join(f"{v:5.1f}" for v in PAPER_FREQUENCY))
    for name, items in sets.items():
        for baseline in ("chance-frequency", "chance-frequency-string"):
            scores = BASELINES.get(baseline)(items, SPEC.scoring).table.scores
            cells = " ".join("    -" if v is None else f"{v:5.1f}" for v in scores.values())
            print(f"{name + ', ' + baseline:50s} {cells}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seeds", type=int, default=1, help="also print mean/sd over seeds 0..K-1")
    parser.add_argument("--rules", choices=("data", "paper"), default="data")
    parser.add_argument("--draw-allocation", choices=("fixed_total", "independent"), default="fixed_total")
    args = parser.parse_args()
    rules = Rules(args.rules, args.draw_allocation)
    scenes = load_meta_info(DATA / "meta_info")
    print(
        f"generate vsibench on {len(scenes)} scenes, rules={args.rules}, seed={args.seed},"
        f" draw_allocation={args.draw_allocation}"
    )
    print_counts(scenes, rules, args.seed, args.seeds)
    print_reproduction(scenes, rules, args.seed)
    generated = generate_vsibench(scenes.values(), builtin_tasks(), rules.settings(args.seed)).items
    print_shape(scenes, generated, five_scene_rows())
    print_frequency_rows(generated)


if __name__ == "__main__":
    main()
