"""Scene generation: plan → doors and windows → room recipes → a deterministic ``SynthScene``."""

from __future__ import annotations

from enum import StrEnum

import numpy as np
from pydantic import BaseModel, ConfigDict

from spatialbench.synth import recipes  # noqa: F401  (registers the room recipes)
from spatialbench.synth.assets import door, window
from spatialbench.synth.colors import FLOORS, TILE_FLOORS, WALLS, pick
from spatialbench.synth.parts import Material
from spatialbench.synth.placement import Layout, facing_yaw
from spatialbench.synth.plan import FloorPlan, OpeningKind, PlanKind, make_plan
from spatialbench.synth.rooms import ROOM_TYPES, radiators, tabletop_items, wall_decor
from spatialbench.synth.scene import SynthScene

#: Room width/depth multiplier per room type (bathrooms and kitchens are smaller than living rooms).
ROOM_SCALE = {"bathroom": 0.62, "kitchen": 0.9, "office": 1.05, "living room": 1.1}


class Density(StrEnum):
    """Object density (ReMindView-Bench App. B.1: sparse and dense settings)."""

    SPARSE = "sparse"
    DENSE = "dense"


class SceneConfig(BaseModel):
    """What to generate.

    Attributes:
        room_type: a name in ``ROOM_TYPES`` (bedroom, living room, kitchen, bathroom, dining room, office).
        density: sparse or dense.
        plan: rectangle, l_shape or two_rooms.
        second_room_type: room type of the second room of a two-room plan (defaults to ``room_type``).
        clutter: after the recipe, up to this many small objects on every free surface
            (``rooms.tabletop_items``) and a low object and a picture along each wall with room for them
            (``rooms.wall_decor``); 0, the default, keeps the recipes' own rooms. ReMindView-style
            generation uses it so frame sets show 3–9 objects (App. A.3).
    """

    model_config = ConfigDict(frozen=True)

    room_type: str
    density: Density = Density.SPARSE
    plan: PlanKind = PlanKind.RECTANGLE
    second_room_type: str | None = None
    clutter: int = 0


def _openings(layout: Layout, plan: FloorPlan) -> None:
    for face in plan.faces:
        for opening in face.openings:
            if opening.kind is OpeningKind.PASSAGE:
                continue
            build = door if opening.kind is OpeningKind.DOOR else window
            asset = build(layout.rng, opening.width, opening.top - opening.bottom, plan.wall_thickness)
            xy = face.point(opening.center, -plan.wall_thickness / 2)
            layout.add(
                asset,
                np.array([xy[0], xy[1], opening.bottom]),
                facing_yaw(face.normal),
                face.room,
                check=False,
            )


def generate_scene(config: SceneConfig, seed: int, scene_id: str | None = None) -> SynthScene:
    """Generate one scene; the same ``config`` and ``seed`` always give the same scene.

    Raises:
        spatialbench.registry.UnknownNameError: unknown ``room_type``.
    """
    types = (config.room_type, config.second_room_type or config.room_type)
    recipes_used = [ROOM_TYPES.get(name) for name in types]
    rng = np.random.default_rng(seed)
    plan = make_plan(config.plan, rng, scale=ROOM_SCALE.get(config.room_type, 1.0))
    layout = Layout(plan, rng)
    _openings(layout, plan)
    dense = config.density is Density.DENSE
    for room in range(len(plan.rooms)):
        if types[room] in ("bedroom", "living room", "office", "dining room"):
            radiators(layout, room, 0.5)
        recipes_used[room](layout, room, dense)
        if config.clutter:
            tabletop_items(layout, room, config.clutter)
            wall_decor(layout, room)
    tiles = config.room_type in ("bathroom", "kitchen")
    palette = {
        "wall": pick(rng, WALLS, 0.03),
        "floor": pick(rng, TILE_FLOORS if tiles else FLOORS, 0.03),
        "floor_material": (Material.TILES if tiles else Material.FLOOR_PLANKS).name,
    }
    name = scene_id or f"{config.room_type.replace(' ', '_')}_{config.density.value}_{seed:06d}"
    return SynthScene(
        name,
        config.room_type,
        tuple(types[: len(plan.rooms)]),
        config.density.value,
        seed,
        plan,
        tuple(layout.objects),
        palette,
    )
