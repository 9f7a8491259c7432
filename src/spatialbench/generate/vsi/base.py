"""The task-generator interface of VSI-Bench generation (Sec. 3.2, App. B.1).

A task generator is a function ``(scene, settings) -> TaskResult`` wrapped with its official
``question_type`` name and answer kind in a :class:`TaskGenerator` and registered in ``TASK_GENERATORS``.
The built-in tasks are lazy entries (``"spatialbench.generate.vsi.tasks.counting:GENERATOR"``), so the
registry lists them all at import and imports a task's module on its first lookup; another generator
registers itself with the decorator::

    @task_generator("object_counting_by_room", AnswerKind.NUMERICAL)
    def generate_counting(scene: Scene, settings: GenerationSettings) -> TaskResult: ...

It returns *candidates*: every unambiguous question it can ask about one scene, before per-scene
sub-sampling, option ordering and id assignment (done once for all tasks by ``pipeline.assemble``), plus
how many candidates each filter rule removed. A multiple-choice candidate gives its choices unordered and
its answer as the text of the correct choice; the assembler orders the choices (balancing the answer
letters) and fills the question's ``{choice_a}``…``{choice_d}`` placeholders in that order. A numerical
candidate gives the ground-truth text exactly as the official files write it (``"2.3"``, ``"96"``) and its
value; the assembler adds generated multiple-choice options (App. B.1).

Tasks built from other inputs (appearance order from rendered frames, route planning from a planner or
human annotation) produce the same ``Candidate`` records and go through the same assembler and writers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spatialbench.generate.vsi.allocation import DrawPlan
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.records.item import AnswerKind
from spatialbench.registry import Registry
from spatialbench.scene.model import Scene

CHOICE_PLACEHOLDERS = ("choice_a", "choice_b", "choice_c", "choice_d", "choice_e", "choice_f")


@dataclass(frozen=True)
class Candidate:
    """One generated question before sub-sampling, option ordering and id assignment.

    Attributes:
        task: official ``question_type`` (e.g. ``"object_rel_distance"``).
        scene_id: ``scene_name`` of the scene.
        dataset: source dataset of the scene.
        question: final question text; for multiple choice it may contain ``{choice_a}``… placeholders,
            filled with the choices in option order (Table 3, relative distance).
        answer: multiple choice: the text of the correct choice (one of ``choices``);
            numerical: the ground truth as the official files write it (``"2.3"``).
        choices: multiple choice: all choice texts including the answer, in any order; numerical: empty.
        value: numerical: the unrounded answer (for option making and audits); None for multiple choice.
        decimals: numerical: decimals of the official formatting (0 for counts and centimetres, 1 else).
        metadata: free, JSON-serialisable details (objects involved, distances, angles).
    """

    task: str
    scene_id: str
    dataset: str
    question: str
    answer: str
    choices: tuple[str, ...] = ()
    value: float | None = None
    decimals: int = 1
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def answer_kind(self) -> AnswerKind:
        """Multiple choice when choices are given, numerical otherwise."""
        return AnswerKind.MULTIPLE_CHOICE if self.choices else AnswerKind.NUMERICAL


@dataclass
class TaskResult:
    """What one generator returns for one scene.

    Attributes:
        candidates: the unambiguous questions, in a deterministic order.
        removed: filter rule name -> number of candidates that rule removed (rules are applied in a
            fixed order; a candidate is counted under the first rule it fails).
        expected: drawn tasks under ``draw_allocation="fixed_total"``: the questions this scene
            yields on average over the independent draw (per-scene cap applied); None otherwise.
    """

    candidates: list[Candidate] = field(default_factory=list)
    removed: Counter[str] = field(default_factory=Counter)
    expected: float | None = None


TaskFunction = Callable[[Scene, GenerationSettings], TaskResult]


@dataclass(frozen=True)
class Drawing:
    """How a task draws candidate units per scene, for draws over all scenes (``vsi.allocation``).

    Attributes:
        plan: ``(scene, settings) -> DrawPlan`` of the scene (every unit's question yield), or None
            when these settings draw nothing (every candidate asked).
        judge: ``(scene, settings, drawn) -> TaskResult`` of the drawn unit indices (the others counted
            in ``removed["not_drawn"]``).
    """

    plan: Callable[[Scene, GenerationSettings], DrawPlan | None]
    judge: Callable[[Scene, GenerationSettings, Sequence[int]], TaskResult]


@dataclass(frozen=True)
class TaskGenerator:
    """A registered task: its official name, answer kind and generating function.

    ``drawing``: set for tasks that draw a few candidate units per scene (relative distance and
    direction), so that ``draw_allocation="fixed_total"`` can draw all scenes to a fixed total.
    """

    name: str
    answer_kind: AnswerKind
    function: TaskFunction
    drawing: Drawing | None = None

    def __call__(self, scene: Scene, settings: GenerationSettings) -> TaskResult:
        """Generate the candidates of this task for one scene."""
        return self.function(scene, settings)


TASK_GENERATORS: Registry[TaskGenerator] = Registry("VSI-Bench task generator")

_TASKS = "spatialbench.generate.vsi.tasks"
#: The built-in tasks read from scene meta-information, in benchmark order (items are numbered in this
#: order), each -> the ``"module:attribute"`` of its generator.
META_INFO_TASKS: dict[str, str] = {
    "object_counting": f"{_TASKS}.counting:GENERATOR",
    "object_abs_distance": f"{_TASKS}.abs_distance:GENERATOR",
    "object_size_estimation": f"{_TASKS}.object_size:GENERATOR",
    "room_size_estimation": f"{_TASKS}.room_size:GENERATOR",
    "object_rel_distance": f"{_TASKS}.rel_distance:GENERATOR",
    "object_rel_direction_easy": f"{_TASKS}.rel_direction:EASY",
    "object_rel_direction_medium": f"{_TASKS}.rel_direction:MEDIUM",
    "object_rel_direction_hard": f"{_TASKS}.rel_direction:HARD",
}
#: Built-in tasks that read what only a rendered scene's meta-info entry holds (its appearance timeline).
RENDERED_TASKS: dict[str, str] = {
    "obj_appearance_order": "spatialbench.generate.vsi.appearance_order:GENERATOR",
}
for _name, _target in {**META_INFO_TASKS, **RENDERED_TASKS}.items():
    TASK_GENERATORS.lazy(_name, _target)


def task_generator(name: str, answer_kind: AnswerKind) -> Callable[[TaskFunction], TaskFunction]:
    """Register the decorated function as the generator of task ``name`` (for tasks beyond the built-in ones).

    Raises:
        DuplicateNameError: ``name`` is already registered (every built-in name is, lazily).
    """

    def decorator(function: TaskFunction) -> TaskFunction:
        TASK_GENERATORS.add(name, TaskGenerator(name, answer_kind, function))
        return function

    return decorator
