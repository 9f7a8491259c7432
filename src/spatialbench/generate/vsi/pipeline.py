"""Run task generators over scenes and assemble the benchmark (App. B.1).

``generate_vsibench`` = for every task and scene: generate candidates, sub-sample to the per-scene cap;
then ``assemble``: order choices with balanced answer letters, add options to numerical questions,
number the items, and collect the manifest. Every (task, scene) pair draws from its own random generator
derived from the seed and the two names, so the output is byte-identical for a seed and adding a task or
scene leaves the others unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spatialbench.generate.vsi.allocation import fixed_total_draws
from spatialbench.generate.vsi.base import TASK_GENERATORS, Candidate, TaskGenerator, TaskResult
from spatialbench.generate.vsi.options import LetterBalancer, fill_choices, letter, numeric_options
from spatialbench.generate.vsi.seeding import derived_rng
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.records.item import AnswerKind, Item
from spatialbench.records.progress import Progress, Tally
from spatialbench.scene.model import Scene

BENCHMARK = "vsibench"


@dataclass
class TaskStats:
    """Per-task bookkeeping for the manifest."""

    candidates: int = 0
    removed: Counter[str] = field(default_factory=Counter)
    expected: float | None = None


@dataclass
class GeneratedBenchmark:
    """The assembled benchmark: items in id order plus the manifest (plain JSON data)."""

    items: list[Item]
    manifest: dict[str, Any]


def subsample(candidates: list[Candidate], cap: int | None, rng: np.random.Generator) -> list[Candidate]:
    """Keep at most ``cap`` candidates, chosen at random, in their original order (App. B.1)."""
    if cap is None or len(candidates) <= cap:
        return list(candidates)
    keep = np.sort(rng.choice(len(candidates), size=cap, replace=False))
    return [candidates[i] for i in keep]


def run_generators(
    scenes: Iterable[Scene],
    tasks: Sequence[str],
    settings: GenerationSettings,
    progress: Progress | None = None,
) -> dict[str, list[TaskResult]]:
    """Run each task's registered generator on each scene and sub-sample per scene.

    A task named twice is generated once (``--tasks X --tasks X`` asks for X, not two copies of it).
    Tasks that draw candidate units (relative distance and direction) draw them as
    ``settings.draw_allocation`` says (``generate.vsi.allocation``). ``progress``: called with (tasks
    generated over every scene, tasks).

    Returns:
        task -> one TaskResult per scene, holding the kept candidates and the filter counts; the
        number of candidates before sub-sampling is in ``removed["per_scene_cap"]``.

    Raises:
        UnknownNameError: a task that is not registered.
    """
    scene_list = list(scenes)
    results: dict[str, list[TaskResult]] = {}
    generators = [TASK_GENERATORS.get(t) for t in dict.fromkeys(tasks)]
    for gen in Tally(len(generators), progress).each(generators):
        results[gen.name] = []
        for scene, result in zip(scene_list, _generate(gen, scene_list, settings), strict=True):
            kept = subsample(
                result.candidates,
                settings.cap(gen.name),
                derived_rng(settings.seed, gen.name, scene.scene_id),
            )
            result.removed["per_scene_cap"] += len(result.candidates) - len(kept)
            results[gen.name].append(TaskResult(kept, result.removed, result.expected))
    return results


def _generate(gen: TaskGenerator, scenes: list[Scene], settings: GenerationSettings) -> list[TaskResult]:
    """One TaskResult per scene before the cap: draws allocated across scenes when the settings say so."""
    drawing = gen.drawing if settings.draw_allocation == "fixed_total" else None
    found = [drawing.plan(scene, settings) for scene in scenes] if drawing else []
    plans = [plan for plan in found if plan is not None]
    if drawing is None or len(plans) < len(scenes):
        return [gen(scene, settings) for scene in scenes]
    cap = settings.cap(gen.name)
    drawn = fixed_total_draws(plans, [scene.scene_id for scene in scenes], gen.name, settings.seed, cap)
    results = []
    for i, scene in enumerate(scenes):
        result = drawing.judge(scene, settings, drawn[i])
        result.expected = float(plans[i].expected(cap))
        results.append(result)
    return results


def _item(index: int, cand: Candidate, balancer: LetterBalancer, settings: GenerationSettings) -> Item:
    rng = derived_rng(settings.seed, cand.task, cand.scene_id, "options", cand.question)
    metadata: dict[str, Any] = dict(cand.metadata)
    if cand.choices:
        ordered, position = balancer.order(cand.answer, cand.choices, rng)
        question, truth = fill_choices(cand.question, ordered), letter(position)
        options = tuple(f"{letter(i)}. {c}" for i, c in enumerate(ordered))
    else:
        question, truth, options = cand.question, cand.answer, ()
        if cand.value is not None:
            mc, position = balancer.order(
                cand.answer, tuple(numeric_options(cand.value, cand.decimals, settings, rng)), rng
            )
            metadata["mc_options"] = [f"{letter(i)}. {c}" for i, c in enumerate(mc)]
            metadata["mc_ground_truth"] = letter(position)
            metadata["value"] = cand.value
    return Item(
        id=str(index),
        benchmark=BENCHMARK,
        task=cand.task,
        question=question,
        options=options,
        ground_truth=truth,
        answer_kind=cand.answer_kind,
        scene_id=cand.scene_id,
        dataset=cand.dataset,
        metadata=metadata,
    )


def assemble(results: Mapping[str, Sequence[TaskResult]], settings: GenerationSettings) -> GeneratedBenchmark:
    """Assemble the benchmark: number, order and complete every task's candidates; build the manifest.

    Args:
        results: task -> TaskResults (from :func:`run_generators`, or built by another source such as
            rendered appearance order or planned routes), in the order items should be numbered.
        settings: the settings used (recorded in the manifest; seed drives option order).
    """
    items: list[Item] = []
    stats: dict[str, TaskStats] = {}
    for task, task_results in results.items():
        balancer = LetterBalancer()
        stats[task] = TaskStats()
        for result in task_results:
            stats[task].removed.update(result.removed)
            if result.expected is not None:
                stats[task].expected = (stats[task].expected or 0.0) + result.expected
            stats[task].candidates += len(result.candidates) + result.removed.get("per_scene_cap", 0)
            for cand in result.candidates:
                items.append(_item(len(items), cand, balancer, settings))
    return GeneratedBenchmark(items, build_manifest(items, stats, settings))


def generate_vsibench(
    scenes: Iterable[Scene],
    tasks: Sequence[str],
    settings: GenerationSettings,
    progress: Progress | None = None,
) -> GeneratedBenchmark:
    """Generate the VSI-Bench ``tasks`` for ``scenes`` (see module docstring; ``progress`` per task)."""
    return assemble(run_generators(scenes, tasks, settings, progress), settings)


def _rounded(score: float | None) -> float | None:
    return None if score is None else round(score, 1)


def build_manifest(
    items: Sequence[Item], stats: Mapping[str, TaskStats], settings: GenerationSettings
) -> dict[str, Any]:
    """Build the manifest.

    Seed, settings, and per task the item count, candidates, removals per rule, the expected count of a
    task drawn to a fixed total (``expected_count``: the independent draw's exact mean, per-scene
    cap applied), answer distribution and frequency baseline
    (:func:`spatialbench.scoring.baselines.chance_frequency`, percent, one decimal).
    """
    from spatialbench.scoring.baselines import chance_frequency

    per_task: dict[str, Any] = {}
    for task, st in stats.items():
        task_items = [it for it in items if it.task == task]
        answers = Counter(it.ground_truth for it in task_items)
        entry: dict[str, Any] = {
            "count": len(task_items),
            "candidates": st.candidates,
            "removed": dict(sorted(st.removed.items())),
            "answer_distribution": dict(sorted(answers.items())),
            "frequency_baseline": _rounded(chance_frequency(task_items).table.task_scores.get(task)),
        }
        if st.expected is not None:
            entry["expected_count"] = round(st.expected, 2)
        if task_items and task_items[0].answer_kind is AnswerKind.NUMERICAL:
            entry["mc_answer_distribution"] = dict(
                sorted(Counter(str(it.metadata.get("mc_ground_truth")) for it in task_items).items())
            )
        per_task[task] = entry
    return {
        "benchmark": BENCHMARK,
        "seed": settings.seed,
        "settings": settings.model_dump(mode="json"),
        "total": len(items),
        "tasks": per_task,
    }
