"""The JSON a judge must return (ours: ReMindView-Bench App. D.1 asks for "JSON" without a schema).

``{"phase1": {"stated": int, "correct": int, "percent": number | null}, "phase2": ..., "phase3": ...}``:
per phase, the spatial relations the phase states about entities of the ground truth (hallucinated ones
excluded), how many the ground truth confirms, and their percentage. Valid when ``0 <= correct <=
stated``, ``percent`` is null exactly when ``stated`` is 0 and otherwise within 1 point of
``100 * correct / stated`` (judges round); extra keys are ignored. The reply may wrap the object in a
Markdown code fence or text: the first ``{`` to its matching ``}`` is read. Parsing never raises.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

JUDGED_PHASES = (1, 2, 3)
TOLERANCE = 1.0


class PhaseJudgement(BaseModel):
    """One phase's counts and percentage (module docstring)."""

    model_config = ConfigDict(extra="ignore", strict=False)

    stated: int = Field(ge=0)
    correct: int = Field(ge=0)
    percent: float | None = Field(default=None, ge=0, le=100)

    @model_validator(mode="after")
    def _consistent(self) -> PhaseJudgement:
        if self.correct > self.stated:
            raise ValueError(f"correct {self.correct} > stated {self.stated}")
        if self.stated == 0:
            if self.percent is not None:
                raise ValueError("percent must be null when stated is 0")
        elif self.percent is None or abs(self.percent - 100 * self.correct / self.stated) > TOLERANCE:
            raise ValueError(f"percent {self.percent} is not 100 * {self.correct} / {self.stated}")
        return self


class Judgement(BaseModel):
    """A judge's reply: phases 1–3."""

    model_config = ConfigDict(extra="ignore")

    phase1: PhaseJudgement
    phase2: PhaseJudgement
    phase3: PhaseJudgement

    def percents(self) -> dict[int, float | None]:
        """Return phase → percent (None: the phase states no relation about known entities)."""
        return {k: getattr(self, f"phase{k}").percent for k in JUDGED_PHASES}


@dataclass(frozen=True)
class Parsed:
    """A parsed reply: the judgement, or None and why it is invalid."""

    judgement: Judgement | None
    error: str | None = None


def _first_object(text: str) -> str | None:
    start = text.find("{")
    if start < 0:
        return None
    depth, in_string, escaped = 0, False, False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            escaped, in_string = (not escaped and ch == "\\"), in_string and (escaped or ch != '"')
            continue
        if ch == '"':
            in_string = True
        elif ch in "{}":
            depth += 1 if ch == "{" else -1
            if depth == 0:
                return text[start : i + 1]
    return None


def parse_judgement(text: object) -> Parsed:
    """Read and validate a judge's reply (module docstring); never raises."""
    if not isinstance(text, str):
        return Parsed(None, "the reply is not text")
    candidate = _first_object(text)
    if candidate is None:
        return Parsed(None, "no JSON object found")
    try:
        return Parsed(Judgement.model_validate(json.loads(candidate)))
    except ValueError as exc:  # JSONDecodeError and ValidationError are ValueErrors
        if isinstance(exc, ValidationError):
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "reply"
            return Parsed(None, f"{where}: {first['msg']}")
        return Parsed(None, f"not JSON ({exc})")
