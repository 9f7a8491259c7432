"""Measure the frame sets of one scene (cameras, visibility; App. B.2, B.3) and render those asked on.

Layout under the output folder (all names written by this module)::

    <rig>_outputs/<Room>/<Room>_<seed>/scene.json                 every object: id, category, box, yaw
    <rig>_outputs/<Room>/<Room>_<seed>/<category>_<id>/level_<n>/
        frame0.png ... frame3.png                                  the views (2-4; object-centric may skip)
        frame_set.json                                             cameras, visibility, question objects
        view_graph.json                                            the sample's view graph (viewgraph.py)

``<rig>`` is ``object_centric`` or ``view_centric`` and ``<Room>`` one of Bathroom, Bedroom, DiningRoom,
Kitchen, LivingRoom: the names the ReMindView-Bench loader reads the pattern, room type and level from.
JSON and metadata go in ``.json`` files only, since the loader reads every ``.csv`` under the folder as a
QA table. Angles are in degrees with the unit in the field name (``yaw_deg``, ``heading_deg``,
``elevation_deg``). A frame set no question is asked on is neither rendered nor written (issue 27), nor is
the ``scene.json`` of a rig with none.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from spatialbench.generate.remindview.frameset import FrameSet, question_objects
from spatialbench.generate.remindview.questions import facing_categories
from spatialbench.generate.remindview.settings import RemindViewConfig
from spatialbench.generate.remindview.viewgraph import view_graph
from spatialbench.generate.vsi.seeding import derived_rng
from spatialbench.generate.written import Recorder
from spatialbench.scene.metainfo import box_to_meta
from spatialbench.synth.raycast import SceneMesh, raycast_ratios
from spatialbench.synth.renderer import Renderer
from spatialbench.synth.rigs import FrameSetPoses, Placement, Rig, rig_poses, targets
from spatialbench.synth.scene import SynthScene

#: per frame, instance id → visibility ratio
Ratios = tuple[dict[int, float], ...]
ROOM_FOLDERS = {
    "bathroom": "Bathroom",
    "bedroom": "Bedroom",
    "dining room": "DiningRoom",
    "kitchen": "Kitchen",
    "living room": "LivingRoom",
}


def rig_folder(rig: Rig) -> str:
    """``object_centric_outputs`` / ``view_centric_outputs``."""
    return f"{rig.value.replace('-', '_')}_outputs"


def scene_folder(scene: SynthScene, rig: Rig) -> Path:
    """``<rig>_outputs/<Room>/<Room>_<seed>`` (relative)."""
    room = ROOM_FOLDERS[scene.room_type]
    return Path(rig_folder(rig)) / room / f"{room}_{scene.seed}"


def write_json(path: Path, payload: Any) -> None:
    """Stable JSON (sorted by construction, one-space indent, trailing newline)."""
    path.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")


def scene_record(scene: SynthScene) -> dict[str, Any]:
    """``scene.json``: room type, density, seed, every object's box (meta-info schema) and yaw (degrees)."""
    objects = [
        {
            "instance_id": o.instance_id,
            "category": o.category,
            "yaw_deg": round(float(np.degrees(o.yaw)), 6),
            **box_to_meta(o.box()),
        }
        for o in scene.objects
    ]
    return {
        "scene_id": scene.scene_id,
        "seed": scene.seed,
        "room_type": scene.room_type,
        "density": scene.density,
        "objects": objects,
    }


class SceneRenderer:
    """Measures every frame set of one scene and renders those asked on.

    ``skipped`` counts, per rig, frame sets without valid cameras (view-centric: also those where no
    candidate position shows a question object in every frame).
    """

    def __init__(
        self, scene: SynthScene, config: RemindViewConfig, recorder: Recorder, renderer: Renderer
    ) -> None:
        """Prepare the ray-casting mesh, the surface samples and the camera placement of ``scene``.

        Files go under ``recorder.out``, each recorded by ``recorder`` before it is written.
        """
        self.scene, self.config, self.renderer = scene, config, renderer
        self.out, self.recorder = recorder.out, recorder
        self.mesh = SceneMesh.from_scene(scene)
        rng = derived_rng(config.seed, scene.scene_id, "samples")
        self.samples = {i: self.mesh.sample_surface(i, config.samples, rng) for i in self.mesh.object_ids()}
        self.placement = Placement(scene, self.mesh, config.rig)
        self.skipped: Counter[str] = Counter()
        self._measured: FrameSet | None = None
        self.target_ids = {o.instance_id for o in targets(scene)}
        renderer.load(scene)

    def frame_sets(self) -> Iterator[FrameSet]:
        """Yield each frame set measured (cameras, visibility, question objects), not yet written.

        Order: rig, target, level. :meth:`write` renders and saves one.
        """
        chosen = targets(self.scene)[: self.config.max_targets]
        for rig in self.config.rigs:
            accept = self._every_frame_shows_an_object if rig is Rig.VIEW_CENTRIC else None
            for target in chosen:
                for level in self.config.levels:
                    rng = derived_rng(
                        self.config.seed, self.scene.scene_id, rig.value, str(target.instance_id), str(level)
                    )
                    poses = rig_poses(self.placement, target, rig, level, rng, accept)
                    if poses is None:
                        self.skipped[rig.value] += 1
                        continue
                    level_dir = (
                        scene_folder(self.scene, rig)
                        / f"{target.category.replace(' ', '_')}_{target.instance_id}"
                        / f"level_{level}"
                    )
                    yield replace(self._measure(poses), folder=level_dir.as_posix())

    def _measure(self, poses: FrameSetPoses, ratios: Ratios | None = None) -> FrameSet:
        """Return the frame set of ``poses`` (no folder yet): visibility by ray casting, question objects.

        ``ratios``: per frame, already cast.
        """
        if self._measured is not None and self._measured.poses is poses:
            return self._measured
        ratios = ratios or tuple(self._ratios(pose) for pose in poses.poses)
        objects, visible = question_objects(
            self.scene.objects, ratios, self.config.visible_ratio, facing_categories()
        )
        self._measured = FrameSet(
            "",
            poses,
            ratios,
            objects,
            self.config.visible_ratio,
            self.scene.room_type,
            self.scene.density,
            visible,
        )
        return self._measured

    def _ratios(self, pose: NDArray[np.float64]) -> dict[int, float]:
        settings = self.config.rig
        return raycast_ratios(
            self.mesh, self.samples, settings.intrinsics(), pose, (settings.width, settings.height)
        )

    def _every_frame_shows_an_object(self, poses: FrameSetPoses) -> bool:
        """View-centric positions: each of the four frames shows a question object (issue 27).

        A frame showing no target object at all rejects the position before the others are cast.
        """
        ratios = []
        for pose in poses.poses:
            ratios.append(self._ratios(pose))
            if not any(r > self.config.visible_ratio for i, r in ratios[-1].items() if i in self.target_ids):
                return False
        frames = self._measure(poses, tuple(ratios))
        return all(frames.visible(f) for f in range(frames.frame_count))

    def write(self, frames: FrameSet) -> None:
        """Render and save ``frames`` (frames, ``frame_set.json``, ``view_graph.json``; module docstring)."""
        folder = Path(frames.folder)
        scene_json = folder.parents[1] / "scene.json"
        if scene_json.as_posix() not in self.recorder.files:
            (self.out / folder).mkdir(parents=True, exist_ok=True)
            self.recorder.add(scene_json)
            write_json(self.out / scene_json, scene_record(self.scene))
        settings = self.config.rig
        K = settings.intrinsics()
        names = [f"frame{i}.png" for i in range(frames.frame_count)] + ["frame_set.json", "view_graph.json"]
        (self.out / folder).mkdir(parents=True, exist_ok=True)
        self.recorder.add(*(folder / name for name in names))
        for index, pose in enumerate(frames.poses.poses):
            color = self.renderer.render(K, pose).color
            Image.fromarray(color).save(self.out / folder / f"frame{index}.png", compress_level=3)
        write_json(self.out / folder / "frame_set.json", frames.to_json())
        write_json(self.out / folder / "view_graph.json", view_graph(frames))
