"""Procedural indoor scenes rendered to walkthrough videos with exact ground truth (issue 5).

Public names: generate a scene (``SceneConfig``, ``generate_scene``), render it (``render_scene``,
``generate_synthetic``, ``RenderConfig``, ``Renderer``), read results back (``FrameSet``, ``FreeSpaceMap``).
Conventions: metres, z-up world, OpenCV camera axes with ``cam_to_world`` 4×4 poses (see ``synth.camera``);
folder layout in ``synth.pipeline``. Submodules are imported lazily by their users (moderngl only when
rendering).
"""

from spatialbench.synth.export import FrameSet
from spatialbench.synth.freespace import FreeSpaceMap, free_space_map
from spatialbench.synth.generator import Density, SceneConfig, generate_scene
from spatialbench.synth.pipeline import RenderConfig, RenderedScene, generate_synthetic, render_scene
from spatialbench.synth.plan import PlanKind
from spatialbench.synth.renderer import Frame, Renderer, RendererUnavailableError
from spatialbench.synth.scene import SYNTHETIC_DATASET, SynthObject, SynthScene

__all__ = [
    "SYNTHETIC_DATASET",
    "Density",
    "Frame",
    "FrameSet",
    "FreeSpaceMap",
    "PlanKind",
    "RenderConfig",
    "RenderedScene",
    "Renderer",
    "RendererUnavailableError",
    "SceneConfig",
    "SynthObject",
    "SynthScene",
    "free_space_map",
    "generate_scene",
    "generate_synthetic",
    "render_scene",
]
