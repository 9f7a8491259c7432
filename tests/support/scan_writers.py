"""Write synthetic scenes as ScanNet v2, ScanNet++ and ARKitScenes files (the datasets' exact layouts).

The scan mesh is the scene's shell (floor, walls, ceiling; subdivided to 20 cm edges, as a scan mesh is
dense) followed by every object's parts in world coordinates. Segments: the shell is split into floor /
wall / ceiling segments by face orientation and height; each object part is its own segment, grouped
per instance under its raw label.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import trimesh

from spatialbench.scene.metainfo import box_to_meta
from spatialbench.synth.export import scene_mesh
from spatialbench.synth.scene import SynthScene

#: Raw labels written for some categories (exercise the remapping); others are written as they are.
SCANNET_RAW = {"trash bin": "trash can"}
ARKIT_RAW = {"tv": "tv_monitor"}


def _shell_segments(shell: trimesh.Trimesh, height: float) -> tuple[trimesh.Trimesh, np.ndarray, list[dict]]:
    vertices, faces = trimesh.remesh.subdivide_to_size(shell.vertices, shell.faces, 0.2)
    mesh = trimesh.Trimesh(vertices, faces, process=False)
    z = mesh.vertices[:, 2]
    seg = np.where(z <= 0.0, 0, np.where(z >= height, 2, 1))  # floor, wall, ceiling by height
    groups = [{"label": name, "segments": [i]} for i, name in enumerate(("floor", "wall", "ceiling"))]
    return mesh, seg, groups


def scan_mesh(scene: SynthScene, raw: dict[str, str]) -> tuple[trimesh.Trimesh, np.ndarray, list[dict]]:
    """(mesh, per-vertex segment ids, segGroups) of a scene as a segmented scan."""
    parts = scene_mesh(scene)
    shell, seg, groups = _shell_segments(parts.geometry["shell"], scene.plan.height)
    meshes, segs, next_seg = [shell], [seg], 3
    for obj in scene.objects:
        first = next_seg
        for part in obj.asset.parts:
            piece = part.mesh.copy()
            piece.apply_transform(obj.pose())
            meshes.append(piece)
            segs.append(np.full(len(piece.vertices), next_seg))
            next_seg += 1
        label = raw.get(obj.category, obj.category)
        groups.append({"label": label, "segments": list(range(first, next_seg)), "objectId": obj.instance_id})
    for i, group in enumerate(groups):
        group["id"] = group["objectId"] = group.get("objectId", i)
    mesh = trimesh.util.concatenate(meshes)
    colours = np.full((len(mesh.vertices), 4), 200, dtype=np.uint8)
    mesh = trimesh.Trimesh(mesh.vertices, mesh.faces, vertex_colors=colours, process=False)
    return mesh, np.concatenate(segs), groups


def _write_json(path: Path, payload: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload))


def write_scannet(scene: SynthScene, root: Path) -> Path:
    """``root/<scene>/``: ``_vh_clean_2.ply``, ``_vh_clean_2.0.010000.segs.json``, ``.aggregation.json``."""
    sid, folder = scene.scene_id, root / scene.scene_id
    mesh, seg, groups = scan_mesh(scene, SCANNET_RAW)
    folder.mkdir(parents=True)
    mesh.export(folder / f"{sid}_vh_clean_2.ply", encoding="binary")
    segs = {"params": {"kThresh": "0.0001", "segMinVerts": "20"}, "sceneId": sid, "segIndices": seg.tolist()}
    _write_json(folder / f"{sid}_vh_clean_2.0.010000.segs.json", segs)
    aggregation = {
        "sceneId": f"scannet.{sid}",
        "appId": "Aggregator.v2",
        "segGroups": groups,
        "segmentsFile": f"scannet.{sid}_vh_clean_2.0.010000.segs.json",
    }
    _write_json(folder / f"{sid}.aggregation.json", aggregation)
    return folder


def write_scannetpp(scene: SynthScene, root: Path) -> Path:
    """``root/<scene>/scans/`` with ``mesh_aligned_0.05.ply``, ``segments.json``, ``segments_anno.json``."""
    scans = root / scene.scene_id / "scans"
    mesh, seg, groups = scan_mesh(scene, {})
    scans.mkdir(parents=True)
    mesh.export(scans / "mesh_aligned_0.05.ply", encoding="binary")
    _write_json(scans / "segments.json", {"sceneId": scene.scene_id, "segIndices": seg.tolist()})
    _write_json(scans / "segments_anno.json", {"sceneId": scene.scene_id, "segGroups": groups})
    return root / scene.scene_id


def write_arkitscenes(scene: SynthScene, root: Path) -> Path:
    """``root/<video_id>/`` with ``<video_id>_3dod_annotation.json`` and ``<video_id>_3dod_mesh.ply``."""
    vid, folder = scene.scene_id, root / scene.scene_id
    mesh, _, _ = scan_mesh(scene, {})
    folder.mkdir(parents=True)
    mesh.export(folder / f"{vid}_3dod_mesh.ply", encoding="binary")
    data = []
    for obj in scene.objects:
        meta = box_to_meta(obj.box())
        obb = {k: meta[k] for k in ("centroid", "axesLengths", "normalizedAxes")}
        label = ARKIT_RAW.get(obj.category, obj.category)
        data.append({"uid": f"{vid}-{obj.instance_id}", "label": label, "segments": {"obbAligned": obb}})
    _write_json(folder / f"{vid}_3dod_annotation.json", {"version": "1.0", "data": data})
    return folder
