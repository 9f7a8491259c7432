"""Fixtures of the synth tests: one small rendered scene shared by the test modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from spatialbench.synth import RenderConfig, RenderedScene, SceneConfig, generate_scene, render_scene

SMALL = RenderConfig(width=160, height=120, fps=8, max_seconds=6.0)


@pytest.fixture(scope="session")
def rendered_bedroom(tmp_path_factory: pytest.TempPathFactory) -> RenderedScene:
    """A dense bedroom rendered at 160×120, 8 fps, 6 s (48 frames)."""
    out: Path = tmp_path_factory.mktemp("synth")
    scene = generate_scene(SceneConfig(room_type="bedroom", density="dense"), seed=7)
    return render_scene(scene, out, SMALL)
