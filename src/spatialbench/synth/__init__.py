"""Procedural indoor scenes rendered to walkthrough videos with exact ground truth (issue 5).

Public names: generate a scene (``SceneConfig``, ``generate_scene``), render it (``render_scene``,
``generate_synthetic``, ``RenderConfig``, ``Renderer``), read results back (``FrameSet``, ``FreeSpaceMap``).
Conventions: metres, z-up world, OpenCV camera axes with ``cam_to_world`` 4×4 poses (see ``synth.camera``);
folder layout in ``synth.pipeline``. The names are imported on first use (``import spatialbench.synth`` or
one light submodule, as the background writer process does, loads no renderer, mesh or geometry code).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spatialbench.synth.export import FrameSet
    from spatialbench.synth.freespace import FreeSpaceMap, free_space_map
    from spatialbench.synth.generator import Density, SceneConfig, generate_scene
    from spatialbench.synth.pipeline import RenderConfig, RenderedScene, generate_synthetic, render_scene
    from spatialbench.synth.plan import PlanKind
    from spatialbench.synth.renderer import Frame, Renderer, RendererUnavailableError
    from spatialbench.synth.scene import SYNTHETIC_DATASET, SynthObject, SynthScene

_HOMES = {
    "export": ("FrameSet",),
    "freespace": ("FreeSpaceMap", "free_space_map"),
    "generator": ("Density", "SceneConfig", "generate_scene"),
    "pipeline": ("RenderConfig", "RenderedScene", "generate_synthetic", "render_scene"),
    "plan": ("PlanKind",),
    "renderer": ("Frame", "Renderer", "RendererUnavailableError"),
    "scene": ("SYNTHETIC_DATASET", "SynthObject", "SynthScene"),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "Density",
    "Frame",
    "FrameSet",
    "FreeSpaceMap",
    "PlanKind",
    "RenderConfig",
    "RenderedScene",
    "Renderer",
    "RendererUnavailableError",
    "SYNTHETIC_DATASET",
    "SceneConfig",
    "SynthObject",
    "SynthScene",
    "free_space_map",
    "generate_scene",
    "generate_synthetic",
    "render_scene",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use (PEP 562)."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    globals()[name] = value
    return value
