"""Meshes of the room shell: floor, ceiling and walls with holes for doors, windows and passages.

The shell has instance id 0 in the masks and is not part of the meta-info. Door and window *objects*
(frames, leaves, panes) are placed into the holes by ``synth.generator``.
"""

from __future__ import annotations

import numpy as np
import shapely
import trimesh
from shapely.geometry import Polygon

from spatialbench.synth.parts import Color, Material, Part
from spatialbench.synth.plan import FloorPlan, OpeningKind, WallFace


def _extrude(polygon: Polygon, z0: float, z1: float) -> trimesh.Trimesh:
    """Prism over ``polygon`` from ``z0`` to ``z1`` (shapely's constrained Delaunay, no extra dependency)."""
    triangles = shapely.get_parts(shapely.constrained_delaunay_triangles(polygon))
    corners = np.array([np.asarray(t.exterior.coords)[:3] for t in triangles]).reshape(-1, 2)
    vertices, inverse = np.unique(corners.round(9), axis=0, return_inverse=True)
    faces = inverse.reshape(-1, 3)
    mesh = trimesh.creation.extrude_triangulation(vertices, faces, z1 - z0)
    mesh.apply_translation((0.0, 0.0, z0))
    return mesh


def _wall_box(
    face: WallFace, u0: float, u1: float, z0: float, z1: float, thickness: float
) -> trimesh.Trimesh:
    """Return a wall piece from ``u0`` to ``u1`` along the face, behind it (centred if two-sided)."""
    back = -thickness / 2 if face.two_sided else -thickness
    front = thickness / 2 if face.two_sided else 0.0
    along, normal = face.direction, face.normal
    corners = [
        face.start + along * u + normal * v for u, v in ((u0, back), (u1, back), (u1, front), (u0, front))
    ]
    return _extrude(Polygon(corners), z0, z1)


def wall_pieces(face: WallFace, height: float, thickness: float) -> list[trimesh.Trimesh]:
    """Return the solid parts of one wall: full-height spans between openings, plus lintels and sills."""
    start = -thickness if face.extend_start else 0.0
    end = face.length + (thickness if face.extend_end else 0.0)
    pieces, cursor = [], start
    for opening in sorted(face.openings, key=lambda o: o.center):
        left, right = opening.center - opening.width / 2, opening.center + opening.width / 2
        pieces.append(_wall_box(face, cursor, left, 0.0, height, thickness))
        if opening.bottom > 0:
            pieces.append(_wall_box(face, left, right, 0.0, opening.bottom, thickness))
        pieces.append(_wall_box(face, left, right, opening.top, height, thickness))
        cursor = right
    pieces.append(_wall_box(face, cursor, end, 0.0, height, thickness))
    return pieces


def shell_parts(
    plan: FloorPlan, wall_color: Color, floor_color: Color, floor_material: Material
) -> list[Part]:
    """Floor, ceiling, walls, skirting boards and door thresholds of ``plan`` as coloured parts (world)."""
    footprint = plan.footprint
    grown = footprint.buffer(plan.wall_thickness, join_style="mitre")
    parts = [
        Part(_extrude(footprint, -0.05, 0.0), floor_color, floor_material),
        Part(_extrude(grown, plan.height, plan.height + 0.05), (0.96, 0.96, 0.95), Material.WALL),
    ]
    drawn_partition = False
    for face in plan.faces:
        if face.two_sided and drawn_partition:
            continue  # both faces of a partition describe the same wall body
        drawn_partition = drawn_partition or face.two_sided
        for piece in wall_pieces(face, plan.height, plan.wall_thickness):
            parts.append(Part(piece, wall_color, Material.WALL))
        parts += _skirting(face, plan.wall_thickness)
        parts += [Part(sill, floor_color, floor_material) for sill in _thresholds(face, plan.wall_thickness)]
    return parts


def _thresholds(face: WallFace, thickness: float) -> list[trimesh.Trimesh]:
    """Floor slabs (z -0.05..0) under the doors of an outer wall, through the wall's thickness.

    The floor polygon stops at the wall's inner face and the door leaf stands in the middle of the wall:
    without a threshold the strip between them shows nothing (depth 0). Partitions need none: the floor
    polygon runs under them.
    """
    if face.two_sided:
        return []
    return [
        _wall_box(face, o.center - o.width / 2, o.center + o.width / 2, -0.05, 0.0, thickness)
        for o in face.openings
        if o.bottom == 0 and o.kind is OpeningKind.DOOR
    ]


def _skirting(face: WallFace, thickness: float) -> list[Part]:
    # A thin darker strip at the bottom of the wall makes the floor/wall edge readable in renders.
    spans: list[tuple[float, float]] = []
    cursor = 0.0
    for opening in sorted(face.openings, key=lambda o: o.center):
        if opening.bottom == 0:
            spans.append((cursor, opening.center - opening.width / 2))
            cursor = opening.center + opening.width / 2
    spans.append((cursor, face.length))
    parts = []
    offset = thickness / 2 if face.two_sided else 0.0
    for u0, u1 in spans:
        if u1 - u0 > 0.01:
            corners = [
                face.start + face.direction * u + face.normal * v
                for u, v in ((u0, offset), (u1, offset), (u1, offset + 0.012), (u0, offset + 0.012))
            ]
            parts.append(Part(_extrude(Polygon(corners), 0.0, 0.08), (0.92, 0.92, 0.9)))
    return parts
