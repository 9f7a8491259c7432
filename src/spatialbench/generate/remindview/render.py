"""Render the frame sets of one scene and measure visibility (App. B.2, B.3).

Layout under the output folder (all names written by this module)::

    <rig>_outputs/<Room>/<Room>_<seed>/scene.json                 every object: id, category, box, yaw
    <rig>_outputs/<Room>/<Room>_<seed>/<category>_<id>/level_<n>/
        frame0.png ... frame3.png                                  the views (2-4; object-centric may skip)
        frame_set.json                                             cameras, visibility, question objects
        view_graph.json                                            the sample's view graph (viewgraph.py)

``<rig>`` is ``object_centric`` or ``view_centric`` and ``<Room>`` one of Bathroom, Bedroom, DiningRoom,
Kitchen, LivingRoom: the names the ReMindView-Bench loader reads the pattern, room type and level from.
JSON and metadata go in ``.json`` files only, since the loader reads every ``.csv`` under the folder as a
QA table.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
    """``scene.json``: room type, density, seed and every object's box (meta-info schema) and yaw."""
    objects = [
        {
            "instance_id": o.instance_id,
            "category": o.category,
            "yaw": round(float(o.yaw), 6),
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
    """Renders every frame set of one scene; ``skipped`` counts, per rig, frame sets without valid cameras."""

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
        renderer.load(scene)

    def frame_sets(self) -> Iterator[FrameSet]:
        """Render, save and yield each frame set (rig, target, level order)."""
        chosen = targets(self.scene)[: self.config.max_targets]
        for rig in self.config.rigs:
            folder = scene_folder(self.scene, rig)
            (self.out / folder).mkdir(parents=True, exist_ok=True)
            self.recorder.add(folder / "scene.json")
            write_json(self.out / folder / "scene.json", scene_record(self.scene))
            for target in chosen:
                for level in self.config.levels:
                    rng = derived_rng(
                        self.config.seed, self.scene.scene_id, rig.value, str(target.instance_id), str(level)
                    )
                    poses = rig_poses(self.placement, target, rig, level, rng)
                    if poses is None:
                        self.skipped[rig.value] += 1
                        continue
                    level_dir = (
                        folder
                        / f"{target.category.replace(' ', '_')}_{target.instance_id}"
                        / f"level_{level}"
                    )
                    yield self._render(poses, level_dir)

    def _render(self, poses: FrameSetPoses, level_dir: Path) -> FrameSet:
        settings = self.config.rig
        K = settings.intrinsics()
        (self.out / level_dir).mkdir(parents=True, exist_ok=True)
        names = [f"frame{i}.png" for i in range(len(poses.poses))] + ["frame_set.json", "view_graph.json"]
        self.recorder.add(*(level_dir / name for name in names))
        ratios = []
        for index, pose in enumerate(poses.poses):
            frame = self.renderer.render(K, pose)
            Image.fromarray(frame.color).save(self.out / level_dir / f"frame{index}.png", compress_level=3)
            ratios.append(raycast_ratios(self.mesh, self.samples, K, pose, (settings.width, settings.height)))
        objects, visible = question_objects(
            self.scene.objects, tuple(ratios), self.config.visible_ratio, facing_categories()
        )
        frames = FrameSet(
            level_dir.as_posix(),
            poses,
            tuple(ratios),
            objects,
            self.config.visible_ratio,
            self.scene.room_type,
            self.scene.density,
            visible,
        )
        write_json(self.out / level_dir / "frame_set.json", frames.to_json())
        write_json(self.out / level_dir / "view_graph.json", view_graph(frames))
        return frames
