"""One builder of run configurations for the tests (instead of a hand-written ``_config`` per file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spatialbench.runs.config import RunConfig


def _merged(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``extra`` laid over it, section by section (a section's keys merge, scalars replace)."""
    out = dict(base)
    for key, value in extra.items():
        both = isinstance(value, dict) and isinstance(out.get(key), dict)
        out[key] = {**out[key], **value} if both else value
    return out


def run_config(
    path: str | Path, out: str | Path, *, benchmark: str = "vsibench", url: str | None = None,
    baseline: str = "chance-random", served: str = "test-vlm", frames: str | None = None, **sections: Any,
) -> RunConfig:
    """Return a validated :class:`RunConfig` of ``benchmark`` on the data at ``path`` into ``out``.

    ``url``: an OpenAI-compatible loopback server (the model is then ``openai-compatible:URL#served``),
    else the model named ``baseline`` (a chance baseline by default). ``frames``: ``media.frames``.
    ``sections``: more settings per section, merged key by
    key into the defaults (``model={"concurrency": 4}``, ``data={"options": {...}}``, ``strategy={...}``).
    """
    name = f"openai-compatible:{url}#{served}" if url is not None else baseline
    base: dict[str, Any] = {
        "data": {"benchmark": benchmark, "path": str(path)},
        "model": {"name": name},
        "out": str(out),
    }
    if frames is not None:
        base["media"] = {"frames": frames}
    return RunConfig.model_validate(_merged(base, sections))
