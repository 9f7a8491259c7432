"""Static lighting baked once per scene at every vertex, for both sides of each face (numpy).

The rasteriser's fragment shader only adds the procedural pattern; everything that does not depend on
the camera is computed here: a sky-tinted ambient term, an oblique key light like daylight (so walls
differ by side), up to :data:`MAX_LAMPS` ceiling lamps with a soft distance fall-off, and contact shadows
sampled from the occlusion volume of ``synth.shadows``. Emissive parts (lamp shades, screens lit from
inside) and window panes (a bright sky paler towards a hazy horizon 1.2 m above the floor) ignore the
lights. The vertex shader adds what depends on the eye: the side facing it, the specular highlight of
metal and screens, depth cueing and the tone curve.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from spatialbench.synth.parts import Material
from spatialbench.synth.scene import SynthScene
from spatialbench.synth.shadows import OcclusionVolume

MAX_LAMPS = 8
KEY_DIR = np.array([0.5, 0.35, -0.6]) / np.linalg.norm([0.5, 0.35, -0.6])  # direction the key light travels
AMBIENT_LOW, AMBIENT_HIGH = np.array([0.33, 0.32, 0.3]), np.array([0.5, 0.52, 0.54])  # facing down / up
LAMP_TINT = np.array([1.0, 0.96, 0.88])
SKY, HORIZON_TINT = np.array([0.93, 0.95, 0.96]), np.array([0.92, 0.97, 1.05])


@dataclass(frozen=True)
class Lights:
    """The scene's lights and contact shadows.

    Attributes:
        lamps: (L, 3) world positions of the lamps, metres (1 <= L <= MAX_LAMPS).
        occlusion: the baked contact-shadow volume.
    """

    lamps: NDArray[np.float64]
    occlusion: OcclusionVolume

    @classmethod
    def of_scene(cls, scene: SynthScene, occlusion: OcclusionVolume) -> Lights:
        """Lamps 25 cm below each ceiling light (the first eight), else one above the floor's centroid."""
        lamps = [o.position + (0.0, 0.0, -0.25) for o in scene.objects if o.category == "ceiling light"]
        if not lamps:
            lamps = [np.array([*scene.plan.footprint.centroid.coords[0], scene.plan.height - 0.25])]
        return cls(np.array(lamps[:MAX_LAMPS], dtype=np.float64), occlusion)

    def irradiance(self, points: NDArray[np.float64], normals: NDArray[np.float64]) -> NDArray[np.float64]:
        """Light (N, 3) reaching ``points`` (N, 3) on surfaces facing unit ``normals`` (N, 3); albedo 1.

        Ambient, key and lamp terms are darkened by the contact-shadow occlusion (by 50 %, 80 % and 70 %
        at full occlusion).
        """
        occ = self.occlusion.sample(points)[:, None]
        sky = 0.5 + 0.5 * normals[:, 2:3]
        ambient = (AMBIENT_LOW + (AMBIENT_HIGH - AMBIENT_LOW) * sky) * (1.0 - 0.5 * occ)
        key = np.maximum(normals @ -KEY_DIR, 0.0)[:, None] * 0.4 * (1.0 - 0.8 * occ)
        lamps = np.zeros((len(points), 1))
        for lamp in self.lamps:
            d = lamp - points
            dist = np.linalg.norm(d, axis=1, keepdims=True)
            facing = np.maximum(np.sum(normals * d, axis=1, keepdims=True) / np.maximum(dist, 1e-9), 0.0)
            lamps += facing / (1.0 + 0.2 * dist**2)
        power = 0.9 / np.sqrt(len(self.lamps))
        return ambient + key + lamps * LAMP_TINT * power * (1.0 - 0.7 * occ)

    def vertex_colors(
        self,
        points: NDArray[np.float64],
        normals: NDArray[np.float64],
        albedo: NDArray[np.float64],
        materials: NDArray[np.int_],
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Lit colours (N, 3) of the side ``normals`` point to and of the other side, linear RGB >= 0.

        ``materials`` (N,) are :class:`~spatialbench.synth.parts.Material` values per vertex.
        """
        sides = []
        for sign in (1.0, -1.0):
            color = albedo * self.irradiance(points, normals * sign)
            emissive = materials == Material.EMISSIVE
            color[emissive] = albedo[emissive] * 1.05
            glass = materials == Material.GLASS
            up = np.clip((points[glass, 2:3] - 1.2) / 1.2, 0.0, 1.0)
            color[glass] = SKY + (albedo[glass] * HORIZON_TINT - SKY) * up
            sides.append(color.astype(np.float32))
        return sides[0], sides[1]
