"""Prompting strategies, registered by name (``spatialbench run --strategy NAME -S KEY=VALUE``).

============================  =====================================================================
``direct``                    the benchmark's prompt, one turn (VSI-Bench Sec. 4.1)
``zero-shot-cot``             "Let's think step by step." + an extraction turn (App. B.3)
``self-consistency``          5 sampled CoT runs (T 0.7, top-p 1, top-k 40), each extracted; majority
``tree-of-thought``           3 plans in one request, 3 plan votes, 3 answers, 3 answer votes (B.3)
``self-explanation``          the direct answer, then "Please explain your answer step by step." (B.2)
``mmsi-three-step``           MMSI-Video-Bench's 3-step chain of thought (Sec. 7.2, App. B)
``answer-and-reason``         one output with a reason and the answer (MMSI error analysis, App. B)
``cognitive-map``             the official cognitive-map prompt alone, parsed (Sec. 6.1, App. B.4)
``map-then-answer``           the map (own or ground truth), then the question (Sec. 6.2, Table 3a)
``with-3d-cues``              top / front / side views of the labelled boxes added (MMSI Sec. 7.1)
============================  =====================================================================

Each strategy is a frozen dataclass whose fields are its parameters (:meth:`Strategy.parameters`, written
to the run config); :func:`build_strategy` checks and types them. A new strategy is one module with a
:class:`~spatialbench.prompting.strategies.base.Strategy` subclass and one ``lazy`` line below.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from spatialbench.prompting.strategies.base import Ask, Outcome, Reader, Strategy, parameter_fields
from spatialbench.prompting.strategies.cogmap import SceneMaps
from spatialbench.registry import Registry

#: strategy name → its Strategy class (called with the parameters)
STRATEGIES: Registry[type[Strategy]] = Registry("prompting strategy", entry_points="spatialbench.strategies")
STRATEGIES.lazy("direct", "spatialbench.prompting.strategies.direct:Direct")
STRATEGIES.lazy("self-explanation", "spatialbench.prompting.strategies.direct:SelfExplanation")
STRATEGIES.lazy("answer-and-reason", "spatialbench.prompting.strategies.direct:AnswerAndReason")
STRATEGIES.lazy("zero-shot-cot", "spatialbench.prompting.strategies.cot:ZeroShotCoT")
STRATEGIES.lazy("self-consistency", "spatialbench.prompting.strategies.cot:SelfConsistency")
STRATEGIES.lazy("mmsi-three-step", "spatialbench.prompting.strategies.cot:MMSIThreeStep")
STRATEGIES.lazy("tree-of-thought", "spatialbench.prompting.strategies.tot:TreeOfThought")
STRATEGIES.lazy("cognitive-map", "spatialbench.prompting.strategies.cogmap:CognitiveMap")
STRATEGIES.lazy("map-then-answer", "spatialbench.prompting.strategies.cogmap:MapThenAnswer")
STRATEGIES.lazy("with-3d-cues", "spatialbench.prompting.strategies.cues3d:With3DCues")

Scalar = str | int | float | bool


class StrategyConfig(BaseModel):
    """The ``strategy`` section of a run: a registered ``name``, its ``params`` (filled in by the run)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "direct"
    params: dict[str, Scalar] = Field(default_factory=dict)


#: bounds of the counts and sampling parameters: (low, high, low included); other counts are >= 1
_BOUNDS: dict[str, tuple[float, float, bool]] = {
    "samples": (1, 64, True),
    "plans": (1, 16, True),
    "plan_votes": (1, 16, True),
    "answers": (1, 16, True),
    "answer_votes": (1, 16, True),
    "temperature": (0, 2, True),
    "top_p": (0, 1, False),
    "top_k": (0, math.inf, True),
}


def _typed(name: str, kind: Any, value: Scalar) -> Scalar:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if kind in (int, "int") and isinstance(value, int) and not isinstance(value, bool):
        return value  # an integer must be written as one: 1e9 and 2.0 are floats
    if kind in (float, "float") and number:
        return float(value)
    if kind in (bool, "bool") and isinstance(value, bool):
        return value
    if kind in (str, "str") and isinstance(value, str):
        return value
    raise ValueError(f"strategy parameter {name}: expected {getattr(kind, '__name__', kind)}, got {value!r}")


def build_strategy(config: StrategyConfig) -> Strategy:
    """Return the strategy ``config`` names with its parameters checked and typed.

    Raises:
        UnknownNameError: no such strategy (the message suggests near names).
        ValueError: a parameter the strategy does not take (the message lists its parameters), a value of
            the wrong type (an integer written as a float: ``1e9``), or out of bounds: ``samples`` 1..64,
            ``plans`` / ``plan_votes`` / ``answers`` / ``answer_votes`` 1..16, ``temperature`` finite 0..2,
            ``top_p`` in (0, 1], ``top_k`` >= 0, any other count >= 1.
    """
    cls = STRATEGIES.get(config.name)
    known = {f.name: f.type for f in parameter_fields(cls)}
    unknown = sorted(set(config.params) - set(known))
    if unknown:
        raise ValueError(
            f"strategy {config.name!r} has no parameter(s) {unknown}; it takes: {sorted(known) or 'none'}"
        )
    typed = {name: _typed(name, known[name], value) for name, value in config.params.items()}
    for name, value in typed.items():
        _check_bounds(name, known[name], value)
    return cls(**typed)


def _check_bounds(name: str, kind: Any, value: Scalar) -> None:
    """Refuse a count or sampling value out of its bounds (:data:`_BOUNDS`; NaN is out of every one)."""
    if isinstance(value, str | bool):
        return
    low, high, low_in = (
        _BOUNDS.get(name, (1, math.inf, True))
        if kind in (int, "int")
        else _BOUNDS.get(name, (-math.inf, math.inf, True))
    )
    if low <= value <= high and (low_in or value > low) and math.isfinite(value):
        return
    if high == math.inf:
        raise ValueError(f"strategy parameter {name} must be at least {low:g}, got {value}")
    span = f"{low:g}..{high:g}" if low_in else f"in ({low:g}, {high:g}]"
    raise ValueError(f"strategy parameter {name} must be {span}, got {value}")


__all__ = [
    "STRATEGIES",
    "Ask",
    "Outcome",
    "Reader",
    "SceneMaps",
    "Strategy",
    "StrategyConfig",
    "build_strategy",
]
