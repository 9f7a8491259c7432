"""``with-3d-cues``: rendered views of the scene's 3D layout added to the frames (MMSI-Video-Bench Sec. 7.1).

The paper reconstructs each scene with VGGT from 50 frames and renders 10 views (top-down and several
side views) of the point cloud; no reconstruction model is available here, so the views are rendered
from the scene's annotated 3D boxes instead: official VSI-Bench scenes and synthetic scenes alike through
their meta-info (synthetic scenes write the same schema), which makes the cues exact rather than
reconstructed — an upper bound on what VGGT cues could give, not a reproduction of them. Each view is a
matplotlib drawing (``image_size`` pixels square) of every object's box projected onto a plane —
``top`` (x, y: a floor plan), ``front`` (x, height), ``side`` (y, height) — filled, outlined and labelled
with its category (``chair 2`` when several), axes in metres; an object has the same colour in every view.

Parameters: ``views`` (comma-separated, in order; default ``top,front,side``), ``placement`` (``after``
the frames, default, or ``before`` them), ``image_size`` (pixels, :data:`IMAGE_SIZES`: 32 to 2048 — larger
views only cost memory, as API providers scale images down to about 2048 pixels anyway; a size is checked
before the run starts), ``meta_info`` (scene file or folder; "" =
``<data>/meta_info``). The instruction (``cues3d.json``, our words: the paper gives none) precedes the
views; one greedy turn answers as ``direct`` does. An item whose scene is unknown fails with an error
naming the scene.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from spatialbench.prompting.strategies.base import Ask, Outcome, Reader, Strategy
from spatialbench.prompting.templates import fill, read_json
from spatialbench.records.item import Item
from spatialbench.records.messages import ImagePart, Part, Request, TextPart

AXES = {"top": (0, 1), "front": (0, 2), "side": (1, 2)}
AXIS_NAMES = ("x (m)", "y (m)", "height (m)")
IMAGE_SIZES = range(32, 2049)
"""The ``image_size`` values taken (pixels per side; module docstring)."""


class Box(Protocol):
    """An oriented box (``spatialbench.scene.box.OrientedBox``)."""

    def corners(self) -> NDArray[np.float64]:
        """Return the (8, 3) corners, metres."""
        ...


class Instance(Protocol):
    """An object instance (``spatialbench.scene.model.ObjectInstance``)."""

    category: str
    index: int
    box: Box


class BoxScene(Protocol):
    """A scene's objects by category (``spatialbench.scene.model.Scene``)."""

    objects: Mapping[str, Sequence[Instance]]


def texts() -> dict[str, Any]:
    """Return the strategy's texts (``cues3d.json``)."""
    return dict(read_json(__package__, "cues3d.json"))


def _hull(points: NDArray[np.float64]) -> NDArray[np.float64]:
    """Convex hull of 2-D points, counter-clockwise (monotone chain; degenerate boxes give a segment)."""
    pts = sorted({(float(x), float(y)) for x, y in points})
    if len(pts) <= 2:
        return np.array(pts)

    def half(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while (
                len(out) >= 2
                and (
                    (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                    - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
                )
                <= 0
            ):
                out.pop()
            out.append(p)
        return out[:-1]

    return np.array(half(pts) + half(pts[::-1]))


def labelled_boxes(scene: BoxScene) -> list[tuple[str, NDArray[np.float64]]]:
    """Return (label, (8, 3) corners) of every object; ``chair 2`` style labels when a category repeats."""
    out = []
    for category, instances in scene.objects.items():
        for n, instance in enumerate(instances):
            label = category if len(instances) == 1 else f"{category} {n + 1}"
            out.append((label, np.asarray(instance.box.corners(), dtype=np.float64)))
    return out


def render_view(scene: BoxScene, view: str, size: int = 448) -> NDArray[np.uint8]:
    """Render one view of ``scene``'s boxes (module docstring); returns (size, size, 3) uint8 RGB.

    Raises:
        ValueError: unknown view name, or a scene without objects.
    """
    from matplotlib import colormaps
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Polygon

    if view not in AXES:
        raise ValueError(f"unknown view {view!r}; views are {', '.join(AXES)}")
    boxes = labelled_boxes(scene)
    if not boxes:
        raise ValueError("the scene has no objects to draw")
    a, b = AXES[view]
    figure = Figure(figsize=(size / 100, size / 100), dpi=100)
    canvas = FigureCanvasAgg(figure)
    ax = figure.add_axes((0.12, 0.1, 0.85, 0.82))
    colours = colormaps["tab20"]  # by the object's place in labelled_boxes: one colour in every view
    order = list(enumerate(boxes))
    if view == "top":
        order.sort(key=lambda nb: -nb[1][1][:, 2].max())  # tall ones first
    for n, (label, corners) in order:
        outline = _hull(corners[:, [a, b]])
        ax.add_patch(Polygon(outline, closed=True, facecolor=colours(n % 20), edgecolor="black", alpha=0.6))
        centre = corners[:, [a, b]].mean(axis=0)
        ax.text(centre[0], centre[1], label, ha="center", va="center", fontsize=6)
    points = np.concatenate([c[:, [a, b]] for _, c in boxes])
    centre, half = (points.min(axis=0) + points.max(axis=0)) / 2, np.ptp(points, axis=0).max() / 2 + 0.3
    ax.set_xlim(centre[0] - half, centre[0] + half)  # one scale on both axes: a square window
    ax.set_ylim(centre[1] - half, centre[1] + half)
    ax.set_aspect("equal")
    ax.set_xlabel(AXIS_NAMES[a], fontsize=7)
    ax.set_ylabel(AXIS_NAMES[b], fontsize=7)
    ax.tick_params(labelsize=6)
    ax.set_title(texts()["view_names"][view], fontsize=8)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()


def _with_cues(request: Request, cues: list[Part], placement: str) -> Request:
    images = [i for i, part in enumerate(request.parts) if isinstance(part, ImagePart)]
    at = (images[-1] + 1 if placement == "after" else images[0]) if images else 0
    parts = (*request.parts[:at], *cues, *request.parts[at:])
    return replace(request, parts=parts)


def _not_a_parameter() -> Any:
    return field(default=None, compare=False, repr=False, metadata={"parameter": False})


@dataclass(frozen=True)
class With3DCues(Strategy):
    """Add rendered views of the scene's boxes to the request, then answer in one turn (module docstring)."""

    name = "with-3d-cues"
    needs_scenes = True  # the cues are drawn from the boxes: no boxes, no request worth sending
    views: str = "top,front,side"
    placement: str = "after"
    image_size: int = 448
    meta_info: str = ""
    scenes: Any = _not_a_parameter()

    def __post_init__(self) -> None:
        unknown = [v for v in self.view_list() if v not in AXES]
        if unknown or not self.view_list():
            raise ValueError(f"strategy parameter views: names from {', '.join(AXES)}, got {self.views!r}")
        if self.image_size not in IMAGE_SIZES:  # 100000 px squared is a MemoryError in the middle of a run
            raise ValueError(
                f"strategy parameter image_size: {IMAGE_SIZES.start} to {IMAGE_SIZES.stop - 1} "
                f"pixels, not {self.image_size!r}"
            )
        if self.placement not in ("after", "before"):
            raise ValueError(f"strategy parameter placement: 'after' or 'before', not {self.placement!r}")

    def view_list(self) -> list[str]:
        """Return the view names in order."""
        return [v.strip() for v in self.views.split(",") if v.strip()]

    def scene(self, item: Item) -> BoxScene:
        """Return the item's scene from the run's meta-info.

        Raises:
            ValueError: no meta-info, or the item's scene is not in it (the message names it).
        """
        scenes = getattr(self.scenes, "scenes", None)
        if not isinstance(scenes, Mapping):
            raise ValueError("with-3d-cues needs scene boxes: give -S meta_info=PATH (or DATA/meta_info)")
        if item.scene_id not in scenes:
            raise ValueError(f"item {item.id}: scene {item.scene_id!r} is not in the meta-info")
        return scenes[item.scene_id]  # type: ignore[no-any-return]

    def cue_parts(self, item: Item) -> list[Part]:
        """Return the instruction and the rendered views for ``item``."""
        words, scene = texts(), self.scene(item)
        views = self.view_list()
        names = ", ".join(words["view_names"][v] for v in views)
        parts: list[Part] = [TextPart(fill(words["instruction"], {"count": str(len(views)), "views": names}))]
        parts += [ImagePart(render_view(scene, v, self.image_size), label=words["labels"][v]) for v in views]
        return parts

    async def answer(self, request: Request, item: Item, ask: Ask, read: Reader) -> Outcome:
        """Answer the request with the cue views added (one turn)."""
        cued = _with_cues(request, self.cue_parts(item), self.placement)
        reply = await ask("answer", cued)
        return Outcome(reply.text, {"views": self.view_list(), "scene": item.scene_id})
