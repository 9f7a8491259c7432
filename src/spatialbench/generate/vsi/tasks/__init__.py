"""Built-in VSI-Bench task generators, one module per task, each exposing its ``TaskGenerator`` value.

Nothing registers on import: ``generate.vsi.base.TASK_GENERATORS`` lists every built-in task as a lazy
``"module:attribute"`` entry and imports a task's module on its first lookup.
"""
