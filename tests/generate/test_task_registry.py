"""The task registry lists every built-in task at import, imports a task's module on first use only."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from spatialbench.generate.vsi import TASK_GENERATORS, GenerationSettings, builtin_tasks, task_generator
from spatialbench.generate.vsi.base import TaskResult
from spatialbench.generate.vsi.pipeline import run_generators
from spatialbench.records.item import AnswerKind
from spatialbench.scene import Scene

LISTING = """
import sys
from spatialbench.generate.vsi import TASK_GENERATORS, builtin_tasks
print(",".join(TASK_GENERATORS.names()))
print(",".join(builtin_tasks()))
print(",".join(m for m in sys.modules if m.startswith("spatialbench.generate.vsi.tasks.")))
print("spatialbench.generate.vsi.appearance_order" in sys.modules)
"""


def test_names_are_listed_without_importing_any_task_module() -> None:
    out = subprocess.run([sys.executable, "-c", LISTING], capture_output=True, text=True, check=True).stdout
    names, builtin, imported, appearance = out.splitlines()
    assert builtin.split(",") == list(builtin_tasks()) and len(builtin_tasks()) == 8
    assert set(names.split(",")) == {*builtin.split(","), "obj_appearance_order"}
    assert imported == "" and appearance == "False"


def test_every_listed_task_resolves_to_its_generator() -> None:
    for name in [*builtin_tasks(), "obj_appearance_order"]:
        generator = TASK_GENERATORS.get(name)
        assert generator.name == name


def test_decorated_generator_runs_through_the_pipeline() -> None:
    @task_generator("test_registry_rooms", AnswerKind.NUMERICAL)
    def rooms(scene: Scene, settings: GenerationSettings) -> TaskResult:
        result = TaskResult()
        result.removed["no candidates"] += 1
        return result

    assert TASK_GENERATORS.get("test_registry_rooms").function is rooms
    scene = Scene("s", "synthetic", 20.0, np.zeros(3), {}, {})
    results = run_generators([scene], ["test_registry_rooms"], GenerationSettings())
    assert results["test_registry_rooms"][0].removed["no candidates"] == 1
