"""Headless rasteriser (moderngl on an EGL standalone context, works on Mesa llvmpipe without a GPU).

``Renderer.load`` bakes a scene once: contact shadows (``synth.shadows``), static lighting per vertex
for both sides of each face (``synth.lighting``) on flat faces re-tessellated where their light varies
(``synth.tessellate``). ``Renderer.render`` then draws one pass per frame (no depth pre-pass; objects
before the shell so that hidden shell pixels fail the depth test before shading) into two targets:
colour (RGBA8, read back as RGB) and instance id + metric depth (one RG32I target, the depth as its
float's bits; z-distance along the optical axis in metres, 0 where nothing was hit). On Mesa's
llvmpipe this costs about 1.3x a bare pass of the same triangles and 1.6x one of the triangles as
modelled (``bench/render_vs_bare.py``). Camera conventions are those of ``synth.camera``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from shapely.geometry import Point
from shapely.prepared import prep

from spatialbench.errors import SpatialBenchError
from spatialbench.synth.lighting import KEY_DIR, Lights
from spatialbench.synth.parts import Material, Part
from spatialbench.synth.plan import FloorPlan
from spatialbench.synth.scene import SynthObject, SynthScene
from spatialbench.synth.shaders import FRAGMENT_PATTERN, FRAGMENT_PLAIN, VERTEX
from spatialbench.synth.shadows import bake_occlusion
from spatialbench.synth.structure import shell_parts
from spatialbench.synth.tessellate import Policy, refine_mesh

NEAR, FAR = 0.05, 50.0
PATTERNED = (Material.WOOD, Material.FABRIC, Material.FLOOR_PLANKS, Material.TILES)
GL_FROM_CV = np.diag([1.0, -1.0, -1.0, 1.0])  # OpenCV camera axes → OpenGL camera axes


class RendererUnavailableError(SpatialBenchError, RuntimeError):
    """No OpenGL context could be created (no EGL / Mesa, or moderngl missing)."""


@dataclass(frozen=True)
class Frame:
    """One rendered view; rows top first.

    Attributes:
        color: (H, W, 3) uint8 RGB.
        instance: (H, W) int32 instance ids (0 = room shell).
        depth: (H, W) float32 metres along the optical axis (0 = no surface).

    ``instance`` and ``depth`` are views of one (H, W, 2) read-back buffer (strided, not C-contiguous).
    """

    color: NDArray[np.uint8]
    instance: NDArray[np.int32]
    depth: NDArray[np.float32]


def projection(K: NDArray[np.float64], width: int, height: int) -> NDArray[np.float64]:
    """OpenGL clip matrix (4, 4) that reproduces the pinhole ``K`` (pixel centres at integer coordinates).

    The y row is negated against the usual GL matrix, so GL's bottom-up framebuffer holds the image top
    row first and a read-back needs no flip; nothing is culled, so the mirrored winding does not matter.
    """
    fx, fy, cx, cy = K[0, 0], K[1, 1], K[0, 2], K[1, 2]
    return np.array(
        [
            [2 * fx / width, 0.0, 1 - 2 * (cx + 0.5) / width, 0.0],
            [0.0, -2 * fy / height, 1 - 2 * (cy + 0.5) / height, 0.0],
            [0.0, 0.0, -(FAR + NEAR) / (FAR - NEAR), -2 * FAR * NEAR / (FAR - NEAR)],
            [0.0, 0.0, -1.0, 0.0],
        ]
    )


def casts_contact_shadow(obj: SynthObject) -> bool:
    """Objects standing on the floor or on a support; not doors, windows, wall-mounted or ceiling items."""
    if obj.category in ("door", "window"):
        return False
    return obj.support is not None or obj.z_range()[0] < 0.05


#: quadtree depths (synth.tessellate): floor, ceiling and walls; object faces looking up (seats, beds,
#: table tops: where contact shadows fall); other large object faces (fridge fronts, wardrobe sides)
SHELL_DEPTH, UP_DEPTH, SIDE_DEPTH = 3, 2, 1
MIN_AREA, MIN_SIDE_AREA = 0.03, 0.2  # m²: smaller faces keep their triangles
GLOSSY_CELL, GLOSSY_DEPTH = 0.25, 2  # metres, splits: large metal and screen faces (highlight per vertex)


def _shell_policy(plan: FloorPlan) -> Policy:
    """Return the policy of the room shell: refine the sides of faces that look into the rooms.

    A side looks into the rooms when 1 cm off the face is inside the floor polygon and below the
    ceiling; the outside of exterior walls and the top of the ceiling stay as they are.
    """
    footprint = prep(plan.footprint)

    def policy(
        centroid: NDArray[np.float64], normal: NDArray[np.float64], area: float
    ) -> tuple[tuple[float, ...], int]:
        sides = []
        for sign in (1.0, -1.0):
            x, y, z = centroid + 0.01 * sign * normal
            if 0.0 < z < plan.height and footprint.contains(Point(x, y)):
                sides.append(sign)
        return (tuple(sides) if area >= MIN_AREA else ()), SHELL_DEPTH

    return policy


def _object_policy(
    centroid: NDArray[np.float64], normal: NDArray[np.float64], area: float
) -> tuple[tuple[float, ...], int]:
    """Objects (outward normals): faces looking up finely, other large faces coarsely."""
    if normal[2] > 0.5 and area >= MIN_AREA:
        return (1.0,), UP_DEPTH
    return ((1.0,) if area >= MIN_SIDE_AREA else ()), SIDE_DEPTH


def _glossy_policy(
    centroid: NDArray[np.float64], normal: NDArray[np.float64], area: float
) -> tuple[tuple[float, ...], int]:
    """Large metal and screen faces: cells of at most GLOSSY_CELL, for the highlight's sake."""
    return ((1.0,) if area >= MIN_SIDE_AREA else ()), GLOSSY_DEPTH


def _part_rows(part: Part, pose: NDArray[np.float64], lights: Lights, policy: Policy) -> NDArray[np.float64]:
    """Rows (3T, 10) of one part in world metres: position, normal, albedo, material (refined if flat)."""
    mesh = part.mesh
    triangles = mesh.vertices[mesh.faces] @ pose[:3, :3].T + pose[:3, 3]
    if part.smooth:
        normals = mesh.vertex_normals[mesh.faces].reshape(-1, 3) @ pose[:3, :3].T
    else:
        if part.material in (Material.METAL, Material.SCREEN):  # their highlight is added per vertex
            triangles, face_normals = refine_mesh(triangles, lights.irradiance, _glossy_policy, GLOSSY_CELL)
        else:
            triangles, face_normals = refine_mesh(triangles, lights.irradiance, policy)
        normals = np.repeat(face_normals, 3, axis=0)
    rows = np.empty((triangles.shape[0] * 3, 10))
    rows[:, 0:3], rows[:, 3:6] = triangles.reshape(-1, 3), normals
    rows[:, 6:9], rows[:, 9] = part.color, int(part.material)
    return rows


@dataclass(frozen=True)
class SceneBuffers:
    """A scene ready to draw.

    Attributes:
        vertices: (V, 14) float32: position, normal, front and back colour (``Lights.vertex_colors``),
            instance id, material; world frame, metres.
        indices: (3T,) uint32 triangle corners into ``vertices``.
        draws: (patterned, first, count) ranges of ``indices``, in drawing order.
    """

    vertices: NDArray[np.float32]
    indices: NDArray[np.uint32]
    draws: tuple[tuple[bool, int, int], ...]


def scene_vertices(ctx: Any, scene: SynthScene) -> SceneBuffers:
    """Return the lit vertices, triangle indices and draws of ``scene``.

    Flat faces are re-tessellated where their light varies (``synth.tessellate``). ``ctx`` (moderngl)
    draws the contact-shadow height map of the objects that cast one.
    """
    casters = [o for o in scene.objects if casts_contact_shadow(o)]
    caster_corners = [
        part.mesh.vertices[part.mesh.faces].reshape(-1, 3) @ o.pose()[:3, :3].T + o.pose()[:3, 3]
        for o in casters
        for part in o.asset.parts
    ]
    positions = np.concatenate(caster_corners) if caster_corners else np.zeros((0, 3))
    occlusion = bake_occlusion(
        ctx, positions.astype(np.float32), scene.plan.footprint.bounds, scene.plan.height
    )
    lights = Lights.of_scene(scene, occlusion)
    palette = scene.palette
    shell = shell_parts(
        scene.plan, tuple(palette["wall"]), tuple(palette["floor"]), Material[palette["floor_material"]]
    )
    policy = _shell_policy(scene.plan)
    blocks = []
    for obj in scene.objects:  # objects first: they hide the shell, whose hidden pixels then fail early
        pose = obj.pose()
        blocks += [
            (_part_rows(part, pose, lights, _object_policy), obj.instance_id) for part in obj.asset.parts
        ]
    blocks += [(_part_rows(part, np.eye(4), lights, policy), 0) for part in shell]
    corners = np.concatenate([block for block, _ in blocks])
    ids = np.concatenate([np.full(len(block), instance) for block, instance in blocks])
    rows, indices = _shared(np.column_stack([corners, ids]).astype(np.float32))
    indices, draws = _draw_order(indices, rows[indices[::3], 9], rows[indices[::3], 10] == 0)
    points, normals = rows[:, 0:3].astype(np.float64), rows[:, 3:6].astype(np.float64)
    front, back = lights.vertex_colors(
        points, normals, rows[:, 6:9].astype(np.float64), rows[:, 9].astype(int)
    )
    data = np.empty((len(rows), 14), dtype=np.float32)
    data[:, 0:6], data[:, 6:9], data[:, 9:12] = rows[:, 0:6], front, back
    data[:, 12], data[:, 13] = rows[:, 10], rows[:, 9]
    return SceneBuffers(data, indices, draws)


def _draw_order(
    indices: NDArray[np.uint32], materials: NDArray[np.float32], shell: NDArray[np.bool_]
) -> tuple[NDArray[np.uint32], tuple[tuple[bool, int, int], ...]]:
    """Reorder triangles into draws (patterned?, first index, index count).

    Objects come first, then the shell (whose hidden pixels then fail the depth test before shading);
    plain triangles before patterned ones in each.
    """
    patterned = np.isin(materials, [int(m) for m in PATTERNED])
    draws: list[tuple[bool, int, int]] = []
    order: list[NDArray[np.intp]] = []
    for is_shell in (False, True):
        for with_pattern in (False, True):
            picked = np.flatnonzero((shell == is_shell) & (patterned == with_pattern))
            if len(picked):
                draws.append((with_pattern, 3 * sum(len(o) for o in order), 3 * len(picked)))
                order.append(picked)
    triangles = indices.reshape(-1, 3)[np.concatenate(order)] if order else indices.reshape(0, 3)
    return triangles.ravel(), tuple(draws)


def _shared(rows: NDArray[np.float32]) -> tuple[NDArray[np.float32], NDArray[np.uint32]]:
    """Distinct rows (V, C) of triangle-corner ``rows`` (3T, C) and the index (3T,) of each corner."""
    keys = np.ascontiguousarray(rows).view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1])))
    _, first, inverse = np.unique(keys.ravel(), return_index=True, return_inverse=True)
    return rows[first], inverse.astype(np.uint32)


class Renderer:
    """Renders one scene at a fixed resolution; create once, ``load`` a scene, then ``render`` many views.

    Raises:
        RendererUnavailableError: no EGL context (message says what failed).
    """

    def __init__(self, width: int, height: int, backend: str = "egl") -> None:
        try:
            import moderngl

            self.ctx = moderngl.create_standalone_context(backend=backend)  # type: ignore[arg-type]  # stub says dict
        except Exception as error:  # moderngl raises plain Exception for a missing EGL/driver
            raise RendererUnavailableError(
                f"cannot create an OpenGL context with backend {backend!r}: {error}. "
                "Install libegl1 and Mesa (libgl1-mesa-dri)."
            ) from error
        self.width, self.height = width, height
        # index 0: plain, 1: patterned (PATTERNED materials); the same vertex shader
        self.programs = tuple(
            self.ctx.program(vertex_shader=VERTEX, fragment_shader=fragment)
            for fragment in (FRAGMENT_PLAIN, FRAGMENT_PATTERN)
        )
        # colour, and instance id + depth sharing one integer target (the depth as its float's bits): one
        # readback for both, and each becomes an array view of it without a copy
        size = (width, height)
        self.targets = (self.ctx.texture(size, 4), self.ctx.texture(size, 2, dtype="i4"))
        self.fbo = self.ctx.framebuffer(
            color_attachments=list(self.targets),
            depth_attachment=self.ctx.depth_renderbuffer((width, height)),
        )
        self.scene: SceneBuffers | None = None
        self.resources: list[Any] = []  # GL objects of the loaded scene: buffers, then one VAO per program

    @property
    def vertices(self) -> NDArray[np.float32]:
        """Vertex rows (V, 14) of the loaded scene (``SceneBuffers.vertices``)."""
        return self.scene.vertices if self.scene else np.zeros((0, 14), dtype=np.float32)

    @property
    def indices(self) -> NDArray[np.uint32]:
        """Triangle corners (3T,) of the loaded scene (``SceneBuffers.indices``)."""
        return self.scene.indices if self.scene else np.zeros(0, dtype=np.uint32)

    def load(self, scene: SynthScene) -> None:
        """Bake ``scene``'s lighting and upload its geometry (replaces the previous scene)."""
        self._make_current()
        for resource in reversed(self.resources):
            resource.release()
        self.scene = scene_vertices(self.ctx, scene)
        buffer, index = (
            self.ctx.buffer(self.scene.vertices.tobytes()),
            self.ctx.buffer(self.scene.indices.tobytes()),
        )
        layout = (
            buffer,
            "3f 3f 3f 3f 1f 1f",
            "in_pos",
            "in_normal",
            "in_front",
            "in_back",
            "in_id",
            "in_mat",
        )
        self.resources = [buffer, index] + [
            self.ctx.vertex_array(program, [layout], index_buffer=index, index_element_size=4)
            for program in self.programs
        ]
        self._uniform("key_dir", tuple(float(v) for v in KEY_DIR))

    def render(
        self,
        K: NDArray[np.float64],
        cam_to_world: NDArray[np.float64],
        into: tuple[NDArray[np.uint8], NDArray[np.int32]] | None = None,
    ) -> Frame:
        """Render the loaded scene from ``cam_to_world`` (4, 4) with intrinsics ``K`` (3, 3).

        ``into``: (H, W, 3) uint8 and (H, W, 2) int32 C-contiguous arrays to read the frame back into (a
        writer's shared slot, say); the Frame's arrays are then views of them. Default: new arrays.

        Raises:
            RuntimeError: no scene was loaded.
        """
        if self.scene is None:
            raise RuntimeError("Renderer.render called before Renderer.load(scene)")
        self._make_current()
        mvp = projection(K, self.width, self.height) @ GL_FROM_CV @ np.linalg.inv(cam_to_world)
        self._uniform("mvp", mvp.T.astype(np.float32).tobytes())
        self._uniform("eye", tuple(float(v) for v in cam_to_world[:3, 3]))
        self.fbo.use()
        self.fbo.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)  # id and depth 0 where nothing is hit
        self.ctx.enable(self.ctx.DEPTH_TEST)
        self.ctx.depth_func = "<"
        for patterned, first, count in self.scene.draws:
            self.resources[2 + patterned].render(first=first, vertices=count)
        color, id_depth = into or (
            np.empty((self.height, self.width, 3), dtype=np.uint8),
            np.empty((self.height, self.width, 2), dtype=np.int32),
        )
        self.fbo.read_into(color, components=3, attachment=0)
        self.fbo.read_into(id_depth, components=2, attachment=1, dtype="i4")
        return Frame(color, id_depth[..., 0], id_depth[..., 1].view(np.float32))

    def _make_current(self) -> None:
        # Creating or releasing another context (a second Renderer) changes the thread's current one;
        # moderngl makes a context current only on entering it, and this one stays entered.
        self.ctx.__enter__()

    def _uniform(self, name: str, value: object) -> None:
        # Both programs share the vertex shader's uniforms; the compiler drops those a program does not use.
        for program in self.programs:
            if name in program:
                member: Any = program[name]
                if isinstance(value, bytes):
                    member.write(value)
                else:
                    member.value = value

    def close(self) -> None:
        """Release the GL context."""
        self.ctx.release()

    def __enter__(self) -> Renderer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
