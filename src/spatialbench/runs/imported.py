"""What an imported run (``spatialbench import``) can say about itself: only what its source recorded.

An imported run's ``config.json`` holds a ``RunConfig`` (so ``compare``, ``report`` and ``serve`` read it
as any run) whose frame, strategy and prompt fields are defaults nobody chose: the other tool sampled the
frames and built the prompts. Its ``backend`` section (``{"imported": true, "tool", "version", "format",
"file", "frames", "response"}``, :mod:`spatialbench.api.importing`) is what is known: the tool, its version
(``unknown`` when neither the file nor the user gave one), the frames where the source names them
(VLMEvalKit's dataset ``VSI-Bench_32frame``) and which text of the source the answers are (lmms-eval's
``filtered_resps``: its filters' output, e.g. a ``<think>`` block stripped). So its settings line and its
extraction read "not recorded" where the source said nothing, and name the text spatialbench extracted
from.
"""

from __future__ import annotations

from typing import Any

NOT_RECORDED = "not recorded"


def imported_source(record: dict[str, Any]) -> dict[str, Any] | None:
    """Return an imported run's ``backend`` section (``config.json`` as written), None for any other run."""
    backend = record.get("backend")
    return backend if isinstance(backend, dict) and backend.get("imported") is True else None


def _recorded(value: Any) -> str:
    return NOT_RECORDED if value in (None, "", "unknown") else str(value)


def imported_solver(record: dict[str, Any], strategy: str) -> str:
    """Return what answered a run: ``lmms-eval (imported)`` for an imported run, else its ``strategy``."""
    source = imported_source(record)
    return strategy if source is None else f"{source.get('tool')} (imported)"


def imported_strategy(record: dict[str, Any], strategy: str) -> str:
    """Return a run's strategy in words: ``none (answers imported from csv)`` for an imported run."""
    source = imported_source(record)
    return strategy if source is None else f"none (answers imported from {source.get('tool')})"


def imported_origin(source: dict[str, Any]) -> str:
    """``lmms-eval 0.7.3`` or ``vlmevalkit (version not recorded)``: the tool and version as recorded."""
    version = _recorded(source.get("version"))
    return f"{source.get('tool')} {version if version != NOT_RECORDED else '(version not recorded)'}"


def imported_extraction(source: dict[str, Any], mode: str) -> str:
    """Return the extraction of an imported run scored with ``mode``: whose, on which text of the source."""
    return f"{mode}, by spatialbench on {source.get('response') or 'the responses as the file holds them'}"


def imported_settings(model: str, source: dict[str, Any], mode: str) -> str:
    """Return an imported run's settings line: model, origin, frames and strategy as recorded, extraction."""
    return (f"{model} · imported from {imported_origin(source)} · frames {_recorded(source.get('frames'))} · "
            f"strategy {NOT_RECORDED} · extraction {imported_extraction(source, mode)}")
