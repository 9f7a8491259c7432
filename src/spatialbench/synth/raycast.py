"""Per-object visibility ratios by ray casting on the scene mesh, and the same ratio from a depth buffer.

ReMindView-Bench App. B.3: each object's mesh is sampled at 1,000 area-weighted surface points; a point is
visible in a frame when it lies in front of the camera, projects inside the image, its face turns towards
the camera and the ray from the camera centre reaches it (the first surface the ray hits is the point
itself, not something in front of it); the share of visible points is the object's visibility ratio,
and the object counts as visible above a threshold (paper 0.2). Two implementations of the same rule,
tested against each other:

- :func:`raycast_ratios`: rays on a :class:`SceneMesh` (trimesh; Embree through ``embreex`` when it is
  installed, else trimesh's own intersector, which needs ``rtree``);
- :func:`depth_buffer_ratios`: the renderer's depth buffer (a point is visible when the surface its pixel
  shows is not in front of it).

Camera conventions: ``synth.camera`` (OpenCV axes, ``cam_to_world`` 4×4, metres).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import trimesh
from numpy.typing import NDArray

from spatialbench.errors import SpatialBenchError
from spatialbench.synth.parts import Material, Part
from spatialbench.synth.scene import SynthScene
from spatialbench.synth.structure import shell_parts

#: samples per object (App. B.3) and the paper's "visible" threshold on the ratio
SAMPLES_PER_OBJECT = 1000
VISIBLE_RATIO = 0.2
#: a surface less than this in front of a sample (metres of z-depth) does not hide it: thin layers of one
#: asset (a screen on a TV body, a duvet on a mattress) and the sample's own face
SURFACE_TOLERANCE_M = 0.02


class RayCastingUnavailableError(SpatialBenchError, RuntimeError):
    """Neither Embree (``embreex``) nor trimesh's fallback intersector (needs ``rtree``) is installed."""


@dataclass(frozen=True)
class SurfaceSamples:
    """Points on an object's surface: ``points`` (n, 3) metres and ``normals`` (n, 3) outward unit normals."""

    points: NDArray[np.float64]
    normals: NDArray[np.float64]

    def facing(self, eye: NDArray[np.float64]) -> NDArray[np.bool_]:
        """(n,) samples whose face turns towards ``eye`` (3,): the others cannot be seen from there."""
        return np.einsum("ij,ij->i", self.normals, eye - self.points) > 0


@dataclass(frozen=True)
class SceneMesh:
    """All triangles of a scene in world coordinates with the instance id of each face.

    Attributes:
        mesh: the triangle mesh (metres, world frame), not merged or re-ordered.
        face_ids: (F,) int64 instance id of each face (0 = room shell).
    """

    mesh: trimesh.Trimesh
    face_ids: NDArray[np.int64]

    @classmethod
    def from_parts(cls, parts: Sequence[tuple[int, NDArray[np.float64], Sequence[Part]]]) -> SceneMesh:
        """Build from ``(instance id, local-to-world 4×4, parts)`` triples."""
        vertices, faces, ids, offset = [], [], [], 0
        for instance_id, pose, group in parts:
            for part in group:
                local = np.asarray(part.mesh.vertices, dtype=np.float64)
                vertices.append(local @ pose[:3, :3].T + pose[:3, 3])
                faces.append(np.asarray(part.mesh.faces, dtype=np.int64) + offset)
                ids.append(np.full(len(part.mesh.faces), instance_id, dtype=np.int64))
                offset += len(local)
        mesh = trimesh.Trimesh(np.concatenate(vertices), np.concatenate(faces), process=False)
        return cls(mesh, np.concatenate(ids))

    @classmethod
    def from_scene(cls, scene: SynthScene) -> SceneMesh:
        """Build from the scene's shell (id 0) and every object's parts, as the renderer draws them."""
        palette = scene.palette
        shell = shell_parts(
            scene.plan, tuple(palette["wall"]), tuple(palette["floor"]), Material[palette["floor_material"]]
        )
        groups: list[tuple[int, NDArray[np.float64], Sequence[Part]]] = [(0, np.eye(4), shell)]
        groups += [(o.instance_id, o.pose(), o.asset.parts) for o in scene.objects]
        return cls.from_parts(groups)

    def object_ids(self) -> list[int]:
        """Instance ids (> 0) present in the mesh, ascending."""
        return sorted(int(i) for i in np.unique(self.face_ids) if i > 0)

    def sample_surface(self, instance_id: int, n: int, rng: np.random.Generator) -> SurfaceSamples:
        """Draw ``n`` points uniformly by area on the faces of ``instance_id`` (world frame, metres).

        Raises:
            KeyError: no face has that id.
        """
        faces = np.flatnonzero(self.face_ids == instance_id)
        if not len(faces):
            raise KeyError(f"no faces with instance id {instance_id}")
        triangles = self.mesh.vertices[self.mesh.faces[faces]]
        cross = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
        area = np.linalg.norm(cross, axis=1)
        chosen = rng.choice(len(faces), size=n, p=area / area.sum())
        u, v = rng.random(n), rng.random(n)
        flip = u + v > 1
        u[flip], v[flip] = 1 - u[flip], 1 - v[flip]
        t = triangles[chosen]
        points = t[:, 0] + u[:, None] * (t[:, 1] - t[:, 0]) + v[:, None] * (t[:, 2] - t[:, 0])
        normals = cross[chosen] / np.maximum(area[chosen], 1e-18)[:, None]
        return SurfaceSamples(points, normals)

    def first_hits(
        self, origins: NDArray[np.float64], directions: NDArray[np.float64]
    ) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
        """Return the first surface along each of the (R, 3) unit rays.

        Returns:
            (R,) distance in metres (``inf`` where nothing is hit) and (R,) instance id (-1 there).

        Raises:
            RayCastingUnavailableError: no ray engine is installed.
        """
        distance, ids = np.full(len(origins), np.inf), np.full(len(origins), -1, dtype=np.int64)
        if not len(origins):
            return distance, ids
        try:
            triangles, rays, locations = self.mesh.ray.intersects_id(
                origins, directions, multiple_hits=False, return_locations=True
            )
        except ModuleNotFoundError as error:  # trimesh's own intersector imports rtree on first use
            raise RayCastingUnavailableError(
                f"ray casting needs embreex (pip install embreex) or rtree: {error}"
            ) from error
        if len(rays):
            distance[rays] = np.linalg.norm(locations - origins[rays], axis=1)
            ids[rays] = self.face_ids[triangles]
        return distance, ids


def project(
    points: NDArray[np.float64], K: NDArray[np.float64], cam_to_world: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(N, 2) pixel coordinates (col, row) and (N,) z-depth in metres of world ``points`` (N, 3)."""
    world_to_cam = np.linalg.inv(cam_to_world)
    cam = points @ world_to_cam[:3, :3].T + world_to_cam[:3, 3]
    z = cam[:, 2]
    safe = np.where(np.abs(z) < 1e-12, 1e-12, z)
    pixels = (cam @ K.T)[:, :2] / safe[:, None]
    return pixels, z


def in_view(
    points: NDArray[np.float64],
    K: NDArray[np.float64],
    cam_to_world: NDArray[np.float64],
    size: tuple[int, int],
) -> NDArray[np.bool_]:
    """(N,) points in front of the camera that project inside the ``(width, height)`` image."""
    pixels, z = project(points, K, cam_to_world)
    width, height = size
    inside = (pixels[:, 0] >= -0.5) & (pixels[:, 0] < width - 0.5)
    inside &= (pixels[:, 1] >= -0.5) & (pixels[:, 1] < height - 0.5)
    return inside & (z > 0)


def reached(
    mesh: SceneMesh, points: NDArray[np.float64], cam_to_world: NDArray[np.float64]
) -> NDArray[np.bool_]:
    """(N,) whether the ray from the camera centre to each of the (N, 3) points reaches it.

    Reached: no surface more than ``SURFACE_TOLERANCE_M`` (of z-depth) in front of the point.
    """
    eye = cam_to_world[:3, 3]
    offsets = points - eye
    distance = np.linalg.norm(offsets, axis=1)
    hits, _ = mesh.first_hits(np.broadcast_to(eye, points.shape).copy(), offsets / distance[:, None])
    cosine = (offsets @ cam_to_world[:3, 2]) / distance  # z-depth per metre along the ray
    return (distance - np.minimum(hits, distance)) * cosine <= SURFACE_TOLERANCE_M


def raycast_ratios(
    mesh: SceneMesh,
    samples: dict[int, SurfaceSamples],
    K: NDArray[np.float64],
    cam_to_world: NDArray[np.float64],
    size: tuple[int, int],
) -> dict[int, float]:
    """Visibility ratio in [0, 1] of each object from its surface samples (App. B.3), by ray casting.

    Args:
        mesh: the scene's triangles.
        samples: instance id → its surface samples (:meth:`SceneMesh.sample_surface`).
        K: (3, 3) intrinsics.
        cam_to_world: (4, 4) camera pose (``synth.camera`` axes).
        size: image (width, height) in pixels.
    """
    if not samples:
        return {}
    # one batch for all objects: one projection, one call into the ray engine (same result per sample)
    stacked = SurfaceSamples(
        np.concatenate([s.points for s in samples.values()]),
        np.concatenate([s.normals for s in samples.values()]),
    )
    points = stacked.points
    seen = in_view(points, K, cam_to_world, size) & stacked.facing(cam_to_world[:3, 3])
    if seen.any():
        seen[seen] = reached(mesh, points[seen], cam_to_world)
    bounds = np.cumsum([0] + [len(s.points) for s in samples.values()])
    return {i: float(seen[a:b].mean()) for i, a, b in zip(samples, bounds[:-1], bounds[1:], strict=True)}


def depth_buffer_ratios(
    samples: dict[int, SurfaceSamples],
    K: NDArray[np.float64],
    cam_to_world: NDArray[np.float64],
    depth: NDArray[np.floating],
) -> dict[int, float]:
    """Return the same ratios from a rendered frame's (H, W) depth buffer (metres along the optical axis).

    A sample is visible when it is in view, faces the camera and the surface its nearest pixel shows is at
    most ``SURFACE_TOLERANCE_M`` in front of it (the rule of :func:`reached`; 0 depth = nothing drawn), plus
    the depth its own face changes over the 0.71 px from the pixel centre (a slanted face). The
    instance id is not compared: a sample within half a pixel of its own outline would be missed whenever
    the pixel centre falls just outside, biasing small curved objects low; without it the errors at outlines
    go both ways and cancel on average.
    """
    height, width = depth.shape
    ratios = {}
    for instance_id, sample in samples.items():
        pixels, z = project(sample.points, K, cam_to_world)
        seen = in_view(sample.points, K, cam_to_world, (width, height)) & sample.facing(cam_to_world[:3, 3])
        cols = np.clip(np.rint(pixels[:, 0]).astype(np.int64), 0, width - 1)
        rows = np.clip(np.rint(pixels[:, 1]).astype(np.int64), 0, height - 1)
        surface = depth[rows, cols]
        tolerance = SURFACE_TOLERANCE_M + _pixel_depth_step(sample, cam_to_world, z / K[0, 0])
        seen &= (surface <= 0) | (z - surface <= tolerance)
        ratios[instance_id] = float(seen.mean())
    return ratios


def _pixel_depth_step(
    sample: SurfaceSamples, cam_to_world: NDArray[np.float64], pixel_m: NDArray[np.float64]
) -> NDArray[np.float64]:
    """(n,) depth change (metres, at most 0.5) of each sample's face over half a pixel diagonal.

    ``pixel_m``: (n,) one pixel's width in metres at each sample's depth. A face at angle θ between its
    normal and the ray changes depth by tan θ per metre across the image.
    """
    rays = sample.points - cam_to_world[:3, 3]
    rays /= np.linalg.norm(rays, axis=1, keepdims=True)
    cosine = np.clip(np.abs(np.einsum("ij,ij->i", rays, sample.normals)), 1e-3, 1.0)
    tangent = np.sqrt(1.0 - cosine**2) / cosine
    return np.minimum(0.71 * pixel_m * tangent, 0.5)
