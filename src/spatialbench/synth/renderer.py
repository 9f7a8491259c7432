"""Headless rasteriser (moderngl on an EGL standalone context, works on Mesa llvmpipe without a GPU).

One draw per frame writes three attachments: colour (RGB8), instance id (int32; 0 = walls, floor,
ceiling) and metric depth (float32, z-distance along the optical axis in metres, 0 where nothing was hit).
Camera conventions are those of ``synth.camera``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.synth.parts import Material, Part
from spatialbench.synth.scene import SynthObject, SynthScene
from spatialbench.synth.shaders import FRAGMENT, VERTEX
from spatialbench.synth.shadows import bake_occlusion
from spatialbench.synth.structure import shell_parts

NEAR, FAR = 0.05, 50.0
GL_FROM_CV = np.diag([1.0, -1.0, -1.0, 1.0])  # OpenCV camera axes → OpenGL camera axes
MAX_LAMPS = 8


class RendererUnavailableError(RuntimeError):
    """No OpenGL context could be created (no EGL / Mesa, or moderngl missing)."""


@dataclass(frozen=True)
class Frame:
    """One rendered view.

    Attributes:
        color: (H, W, 3) uint8 RGB.
        instance: (H, W) int32 instance ids (0 = room shell).
        depth: (H, W) float32 metres along the optical axis (0 = no surface).
    """

    color: NDArray[np.uint8]
    instance: NDArray[np.int32]
    depth: NDArray[np.float32]


def projection(K: NDArray[np.float64], width: int, height: int) -> NDArray[np.float64]:
    """OpenGL clip matrix (4, 4) that reproduces the pinhole ``K`` (pixel centres at integer coordinates)."""
    fx, fy, cx, cy = K[0, 0], K[1, 1], K[0, 2], K[1, 2]
    return np.array(
        [
            [2 * fx / width, 0.0, 1 - 2 * (cx + 0.5) / width, 0.0],
            [0.0, 2 * fy / height, 2 * (cy + 0.5) / height - 1, 0.0],
            [0.0, 0.0, -(FAR + NEAR) / (FAR - NEAR), -2 * FAR * NEAR / (FAR - NEAR)],
            [0.0, 0.0, -1.0, 0.0],
        ]
    )


def _part_vertices(part: Part, pose: NDArray[np.float64], instance_id: int) -> NDArray[np.float32]:
    mesh = part.mesh
    rotation = pose[:3, :3]
    positions = mesh.vertices[mesh.faces].reshape(-1, 3) @ rotation.T + pose[:3, 3]
    if part.smooth:
        normals = mesh.vertex_normals[mesh.faces].reshape(-1, 3)
    else:
        normals = np.repeat(mesh.face_normals, 3, axis=0)
    count = len(positions)
    data = np.empty((count, 11), dtype=np.float32)
    data[:, 0:3], data[:, 3:6] = positions, normals @ rotation.T
    data[:, 6:9], data[:, 9], data[:, 10] = part.color, instance_id, int(part.material)
    return data


def casts_contact_shadow(obj: SynthObject) -> bool:
    """Objects standing on the floor or on a support; not doors, windows, wall-mounted or ceiling items."""
    if obj.category in ("door", "window"):
        return False
    return obj.support is not None or obj.z_range()[0] < 0.05


def scene_vertices(scene: SynthScene) -> tuple[NDArray[np.float32], int, int]:
    """Interleaved vertex rows (N, 11): position, normal, colour, instance id, material — world frame.

    Rows are ordered shell, shadow casters, other objects; returns the rows, the number of shell rows and
    the number of caster rows (the height map draws only the casters).
    """
    palette = scene.palette
    shell = shell_parts(
        scene.plan, tuple(palette["wall"]), tuple(palette["floor"]), Material[palette["floor_material"]]
    )
    blocks = [_part_vertices(part, np.eye(4), 0) for part in shell]
    shell_rows = sum(len(b) for b in blocks)
    ordered = sorted(scene.objects, key=lambda o: not casts_contact_shadow(o))  # stable: ids keep order
    casters = 0
    for obj in ordered:
        pose = obj.pose()
        rows = [_part_vertices(part, pose, obj.instance_id) for part in obj.asset.parts]
        casters += sum(len(r) for r in rows) if casts_contact_shadow(obj) else 0
        blocks += rows
    return np.concatenate(blocks), shell_rows, casters


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
        self.program = self.ctx.program(vertex_shader=VERTEX, fragment_shader=FRAGMENT)
        # colour, and instance id + depth sharing one float target (one clear, one readback for both)
        size = (width, height)
        self.targets = (self.ctx.texture(size, 4), self.ctx.texture(size, 2, dtype="f4"))
        self.fbo = self.ctx.framebuffer(
            color_attachments=list(self.targets),
            depth_attachment=self.ctx.depth_renderbuffer((width, height)),
        )
        self.vao: Any = None

    def load(self, scene: SynthScene) -> None:
        """Upload ``scene``'s geometry, lights and contact-shadow height map (replaces the previous scene)."""
        data, shell_rows, casters = scene_vertices(scene)
        buffer = self.ctx.buffer(data.tobytes())
        self.vao = self.ctx.vertex_array(
            self.program,
            [(buffer, "3f 3f 3f 1f 1f", "in_pos", "in_normal", "in_color", "in_id", "in_mat")],
        )
        occlusion = bake_occlusion(
            self.ctx, buffer, shell_rows, casters, scene.plan.footprint.bounds, scene.plan.height
        )
        occlusion.texture.use(location=0)
        self._uniform("occlusion_volume", 0)
        self._uniform("occ_rect", occlusion.rect)
        self._uniform("occ_top", occlusion.top)
        lamps = [
            obj.position + np.array([0.0, 0.0, -0.25])
            for obj in scene.objects
            if obj.category == "ceiling light"
        ][:MAX_LAMPS]
        lamps = lamps or [np.array([*scene.plan.footprint.centroid.coords[0], scene.plan.height - 0.25])]
        padded = np.zeros((MAX_LAMPS, 3), dtype=np.float32)
        padded[: len(lamps)] = lamps
        self._uniform("lamp_pos", padded.tobytes())
        self._uniform("lamp_count", len(lamps))
        self._uniform("lamp_power", 0.9 / np.sqrt(len(lamps)))
        self._uniform("key_dir", (0.5, 0.35, -0.6))  # oblique, like daylight: walls differ by side

    def render(self, K: NDArray[np.float64], cam_to_world: NDArray[np.float64]) -> Frame:
        """Render the loaded scene from ``cam_to_world`` (4, 4) with intrinsics ``K`` (3, 3).

        Raises:
            RuntimeError: no scene was loaded.
        """
        if self.vao is None:
            raise RuntimeError("Renderer.render called before Renderer.load(scene)")
        view = GL_FROM_CV @ np.linalg.inv(cam_to_world)
        mvp = projection(K, self.width, self.height) @ view
        self._uniform("mvp", mvp.T.astype(np.float32).tobytes())
        self._uniform("view", view.T.astype(np.float32).tobytes())
        self._uniform("eye", tuple(float(v) for v in cam_to_world[:3, 3]))
        self.fbo.use()
        self.fbo.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)  # id and depth 0 where nothing is hit
        self.ctx.enable(self.ctx.DEPTH_TEST)
        # Depth pre-pass, then shade only the visible surface: each pixel runs the fragment shader once.
        self.fbo.color_mask = ((False,) * 4,) * 2  # type: ignore[assignment]  # one per target
        self.ctx.depth_func = "<"
        self.vao.render()
        self.fbo.color_mask = ((True,) * 4,) * 2  # type: ignore[assignment]
        self.fbo.depth_mask = False
        self.ctx.depth_func = "<="
        self.vao.render()
        self.fbo.depth_mask = True
        shape = (self.height, self.width)
        color = np.frombuffer(self.fbo.read(components=3, attachment=0), dtype=np.uint8).reshape(*shape, 3)
        id_depth = np.frombuffer(self.fbo.read(components=2, attachment=1, dtype="f4"), dtype=np.float32)
        id_depth = np.flipud(id_depth.reshape(*shape, 2))
        return Frame(np.flipud(color).copy(), id_depth[..., 0].astype(np.int32), id_depth[..., 1].copy())

    def _uniform(self, name: str, value: object) -> None:
        # The GLSL compiler drops uniforms a shader variant does not use; skip those.
        if name in self.program:
            member: Any = self.program[name]
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
