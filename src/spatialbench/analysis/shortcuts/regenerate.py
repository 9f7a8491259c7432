"""Regenerate instead of delete (issue 23 item 4): re-draw a generated benchmark's high-bias questions.

Deleting the questions a text-only forest answers (IBP) shrinks a task; a generated benchmark can ask
other questions instead. After generating, the stress-test (TsT-RF, :func:`.forest.stress_test`) flags
every question whose bias — s(x) above chance: multiple choice P(gold) - 1/options, numbers the MRA of the
forest's prediction minus the MRA of the constant guess (the training fold's mean answer, the ``chance``
column) — is above ``threshold``; each flagged question is replaced in place (same task, same scene, so every
per-task and per-scene count is kept) by a question the same generator asks with another seed — other
objects, pairs or choice sets — never one asked before, the one whose answer is rarest among the task's
current answers first (balanced answers; the assembler rebalances the answer letters). A round's
replacements are kept for a question type only when its TsT accuracy does not rise (types are
stress-tested apart, so one type's changes never move another's), and the rounds repeat until nothing
is flagged, no spare question is left, or ``rounds`` is reached.

Tasks whose generator asks every question a scene allows (counting, object and room size) have no spare
questions: their flagged questions stay, counted in the report. Same seeds, same bytes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbench.analysis.shortcuts.forest import StressTest, TaskScore, stress_test
from spatialbench.analysis.shortcuts.table import question_table
from spatialbench.errors import SpatialBenchError
from spatialbench.generate.vsi import (
    Candidate,
    GeneratedBenchmark,
    GenerationSettings,
    TaskResult,
    assemble,
    run_generators,
)
from spatialbench.generate.vsi.folder import DEBIAS_FILE
from spatialbench.generate.vsi.seeding import derived_rng
from spatialbench.generate.vsi.writers import write_benchmark
from spatialbench.records import AnswerKind, Item
from spatialbench.records.files import atomic_write_text
from spatialbench.scene.model import Scene

Results = dict[str, list[TaskResult]]
Slot = tuple[str, int, int]  # (generator task, scene index, candidate index)


#: How a numerical question's bias is read (:class:`DebiasSettings` ``numbers``).
NUMBER_RULES = ("above_chance", "mra")


class DebiasSettingsError(SpatialBenchError, ValueError):
    """A re-draw setting out of range (the message names it and its range)."""


@dataclass(frozen=True)
class DebiasSettings:
    """How questions are flagged and re-drawn.

    ``threshold``: bias above which a question is re-drawn; ``rounds``: most re-draw rounds;
    ``folds``/``seed``: the stress-test's fold kind and seed (official: random, 42); ``numbers``: a
    number's bias, ``above_chance`` (MRA minus the constant guess's MRA, as multiple choice subtracts
    1/options) or ``mra`` (the MRA itself: a guess near the mean passes 0.25 on many items).
    """

    threshold: float = 0.25
    rounds: int = 5
    folds: str = "random"
    seed: int = 42
    numbers: str = "above_chance"

    def __post_init__(self) -> None:
        """Refuse a threshold no bias can exceed meaningfully or a round count below one.

        Raises:
            DebiasSettingsError: ``threshold`` outside [0, 1) (NaN included) or ``rounds`` below 1.
        """
        if not 0.0 <= self.threshold < 1.0:  # also refuses NaN
            raise DebiasSettingsError(f"debias threshold {self.threshold}: use a bias score in [0, 1)")
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or self.rounds < 1:
            raise DebiasSettingsError(f"debias rounds {self.rounds!r}: use a whole number of at least 1")
        if self.numbers not in NUMBER_RULES:
            rules = ", ".join(NUMBER_RULES)
            raise DebiasSettingsError(f"debias numbers {self.numbers!r}: use one of {rules}")


@dataclass(frozen=True)
class Regeneration:
    """The re-drawn benchmark and the report (``debias.json``: shapes in :func:`regenerate_biased`)."""

    bench: GeneratedBenchmark
    report: dict[str, Any]


@dataclass
class _State:
    """The current questions, their stress-test per TsT type, and every question asked so far."""

    results: Results
    tasks: dict[str, TaskScore]
    bias: dict[str, float]
    seen: set[tuple[Any, ...]]


def _key(c: Candidate) -> tuple[Any, ...]:
    # no answer: the same question with a re-sampled distance estimate is no other question
    return (c.task, c.scene_id, c.question, tuple(sorted(c.choices)))


def _slots(results: Results) -> list[Slot]:
    """Each item's slot, in the assembler's numbering order (item id = position)."""
    return [(task, s, c) for task, per_scene in results.items()
            for s, result in enumerate(per_scene) for c in range(len(result.candidates))]


def _measure(items: Sequence[Item], debias: DebiasSettings) -> tuple[StressTest, dict[str, float]]:
    """Stress-test ``items``; also return each item's bias (s above chance; ``mra``: a number's s itself)."""
    result = stress_test(items, debias.folds, seed=debias.seed)
    if debias.numbers == "above_chance":
        return result, result.above_chance()
    options = {it.id: len(it.options) for it in items if it.answer_kind is AnswerKind.MULTIPLE_CHOICE}
    return result, {i: s - (1.0 / options[i] if i in options else 0.0) for i, s in result.items.items()}


def _tst_types(items: Sequence[Item]) -> dict[str, str]:
    """Map each generator task to the TsT question type it is tested in (relative-direction levels merged)."""
    table = question_table(items)
    names = dict(zip(table["id"], table["task"], strict=True))
    return {it.task: str(names[it.id]) for it in items}


def _flagged(state: _State, threshold: float) -> list[Slot]:
    """Slots of the questions above ``threshold``, highest bias first (ties by id)."""
    slots = _slots(state.results)
    above = [(i, b) for i, b in state.bias.items() if b > threshold]
    return [slots[int(i)] for i, _ in sorted(above, key=lambda x: (-round(x[1], 12), int(x[0])))]


def _spares(scenes: list[Scene], tasks: list[str], settings: GenerationSettings, number: int) -> Results:
    """Return what the generators ask with round ``number``'s seed (derived from the benchmark's)."""
    seed = int(derived_rng(settings.seed, "debias", str(number)).integers(2**31))
    return run_generators(scenes, tasks, settings.model_copy(update={"seed": seed}))


def _propose(state: _State, flagged: list[Slot], spares: Results) -> tuple[Results, Counter[str]]:
    """Replace each flagged question by an unseen spare of its task and scene, rarest answer first."""
    results = {t: [TaskResult(list(r.candidates), r.removed, r.expected) for r in rs]
               for t, rs in state.results.items()}
    answers = {t: Counter(c.answer for r in rs for c in r.candidates) for t, rs in results.items()}
    replaced: Counter[str] = Counter()
    for task, s, c in flagged:
        pool = [x for x in spares[task][s].candidates if _key(x) not in state.seen]
        if not pool:
            continue
        new = min(pool, key=lambda x: answers[task][x.answer])  # min keeps the first of equals
        old = results[task][s].candidates[c]
        answers[task].update({old.answer: -1, new.answer: 1})
        results[task][s].candidates[c] = new
        state.seen.add(_key(new))
        replaced[task] += 1
    return results, replaced


def _round(state: _State, proposal: Results, types: Mapping[str, str], settings: GenerationSettings,
           debias: DebiasSettings) -> list[str]:
    """Keep the proposal's questions of each TsT type whose accuracy does not rise; return those types.

    Only the changed types are stress-tested again: a type's result reads its own rows alone, and the
    assembler keeps every item's id (its position) when the counts are kept.
    """
    changed = {types[t] for t in proposal if proposal[t] != state.results[t]}
    items = [it for it in assemble(proposal, settings).items if types[it.task] in changed]
    measured, bias = _measure(items, debias)
    tasks, old = measured.tasks, state.tasks
    kept = sorted(n for n in changed if n in tasks and n in old and tasks[n].score <= old[n].score)
    by_id = {it.id: types[it.task] for it in items}
    for task in proposal:
        if types.get(task) in kept:  # a task without questions has no type
            state.results[task] = proposal[task]
    for name in kept:
        state.tasks[name] = tasks[name]
        state.bias.update({i: b for i, b in bias.items() if by_id[i] == name})
    return kept


REASONS = {
    "no_spares": "the generator asked no other question of these tasks and scenes (it asks every one they "
                 "allow, or every spare was tried)",
    "not_kept": "the last re-draws of this type raised its TsT accuracy, so they were not kept",
    "max_rounds": "re-draws were still being kept when the rounds ran out (more rounds may lower it further)",
}
"""Why a type still has flagged questions after the rounds (``tasks.<type>.left_because``)."""

NOTE = ("The re-draws were chosen and kept against the same forest that measures 'after' (settings: folds, "
        "seed), so an 'after' below chance means fitted to this forest, not free of shortcuts: re-test the "
        "folder with `spatialbench stress-test` (both fold kinds, another --seed) before trusting it.")


@dataclass
class _Rounds:
    """What the rounds did: a record per round, replacements kept and the last outcome per TsT type."""

    records: list[dict[str, Any]]
    replaced: Counter[str]
    outcome: dict[str, str]  # type -> "no_spares" | "not_kept" | "max_rounds" (its last round)
    stop: str = "max_rounds"


def _summary(before: StressTest, after: StressTest, flagged: tuple[Counter[str], Counter[str]],
             done: _Rounds) -> dict[str, Any]:
    """Per TsT type and overall (mean over types): TsT accuracy before and after, chance, counts, reasons."""
    tasks = {
        name: {
            "n": b.n, "chance": b.chance, "before": b.score,
            "after": after.tasks[name].score if name in after.tasks else None,
            "flagged_before": flagged[0][name], "flagged_after": flagged[1][name],
            "replaced": done.replaced[name],
            "left_because": done.outcome.get(name, "no_spares") if flagged[1][name] else None,
        }
        for name, b in before.tasks.items()
    }
    overall = {"chance": before.overall[1], "before": before.overall[0], "after": after.overall[0]}
    return {"tasks": tasks, "overall": overall, "skipped": before.skipped}


def _loop(
    state: _State, scenes: list[Scene], types: Mapping[str, str], settings: GenerationSettings,
    debias: DebiasSettings, log: Callable[[str], None],
) -> _Rounds:
    """Run the re-draw rounds on ``state`` until nothing is flagged, nothing is re-drawn or ``rounds``."""
    done = _Rounds([], Counter(), {})
    for number in range(1, debias.rounds + 1):
        flagged = _flagged(state, debias.threshold)
        if not flagged:
            done.stop = "none_flagged"
            break
        spares = _spares(scenes, sorted({t for t, _, _ in flagged}), settings, number)
        proposal, proposed = _propose(state, flagged, spares)
        tried = {types[t] for t in proposed}
        done.outcome.update({types[t]: "no_spares" for t, _, _ in flagged if types[t] not in tried})
        if not proposed:
            done.stop = "no_spares"
            break
        kept = _round(state, proposal, types, settings, debias)
        done.outcome.update({name: "max_rounds" if name in kept else "not_kept" for name in tried})
        for task, n in proposed.items():
            done.replaced[types[task]] += n if types[task] in kept else 0
        done.records.append({"round": number, "flagged": len(flagged),
                             "replaced": dict(sorted(proposed.items())), "kept_types": kept})
        log(f"[debias] round {number}: {len(flagged)} flagged, {sum(proposed.values())} re-drawn, "
            f"kept for {', '.join(kept) or 'no type'}")
    return done


def regenerate_biased(
    scenes: Sequence[Scene],
    tasks: Sequence[str],
    settings: GenerationSettings,
    debias: DebiasSettings | None = None,
    log: Callable[[str], None] = lambda line: None,
) -> Regeneration:
    """Generate ``tasks`` on ``scenes`` and re-draw the questions the stress-test flags (module docstring).

    Report (``debias.json``): ``settings`` (threshold, numbers, rounds, folds, seed, generator_seed),
    ``tasks``: per TsT type ``{n, chance, before, after, flagged_before, flagged_after, replaced,
    left_because}`` (TsT accuracy and chance in percent; ``left_because`` a key of :data:`REASONS` or
    null), ``reasons``, ``overall`` (means over types), ``rounds``: per round
    ``{round, flagged, replaced: {task: n}, kept_types}``, ``stop_reason`` (``none_flagged``, ``no_spares``,
    ``max_rounds``), ``skipped`` (types the stress-test cannot split), ``note`` (:data:`NOTE`). The manifest
    gains ``debias`` (the settings).
    ``log``: called with one line per round.

    Raises:
        StressTestError / LeakError: from the stress-test.
    """
    debias, scene_list = debias or DebiasSettings(), list(scenes)
    results = run_generators(scene_list, tasks, settings)
    first = assemble(results, settings).items
    types = _tst_types(first)
    before, bias = _measure(first, debias)
    asked = {_key(c) for rs in results.values() for r in rs for c in r.candidates}
    state = _State(results, dict(before.tasks), bias, asked)
    initially = Counter(types[t] for t, _, _ in _flagged(state, debias.threshold))
    done = _loop(state, scene_list, types, settings, debias, log)
    bench = assemble(state.results, settings)
    after, final = _measure(bench.items, debias)
    still = Counter(types[bench.items[int(i)].task] for i, b in final.items() if b > debias.threshold)
    chosen = {"threshold": debias.threshold, "numbers": debias.numbers, "rounds": debias.rounds,
              "folds": debias.folds, "seed": debias.seed, "generator_seed": settings.seed}
    report = {"settings": chosen, **_summary(before, after, (initially, still), done), "reasons": REASONS,
              "rounds": done.records, "stop_reason": done.stop, "note": NOTE}
    bench.manifest["debias"] = {**chosen, "report": DEBIAS_FILE}
    return Regeneration(bench, report)


def write_regeneration(regen: Regeneration, out: Path) -> dict[str, Path]:
    """Write the re-drawn benchmark (:func:`write_benchmark`) and its report, ``out/debias.json``.

    The report is indented JSON with sorted keys and no timings: the same seeds write the same bytes.
    """
    paths = write_benchmark(regen.bench.items, regen.bench.manifest, out)
    paths["debias"] = out / DEBIAS_FILE
    atomic_write_text(paths["debias"], json.dumps(regen.report, indent=2, sort_keys=True) + "\n")
    return paths


def summary_lines(report: Mapping[str, Any]) -> list[str]:
    """Return one line per TsT type (before -> after, chance, replaced, flagged left and why), the note."""
    lines = []
    for name, t in report["tasks"].items():
        after = "n/a" if t["after"] is None else f"{t['after']:.1f}"
        left = f", {t['flagged_after']} flagged left ({t['left_because']})" if t["flagged_after"] else ""
        lines.append(f"{name:28s} TsT {t['before']:5.1f} -> {after:>5s} (chance, item mean "
                     f"{t['chance']:.1f}, n {t['n']}): {t['replaced']} replaced{left}")
    lines += [f"{name:28s} not stress-tested ({why}), not re-drawn"
              for name, why in report["skipped"].items()]
    chosen = report["settings"]
    return [*lines, f"note ({chosen['folds']} folds, seed {chosen['seed']}): {report['note']}"]
