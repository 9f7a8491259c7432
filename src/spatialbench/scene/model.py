"""The Scene record: a room's floor area and centre plus its object instances (VSI-Bench App. B.1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.scene.box import OrientedBox


@dataclass(frozen=True, eq=False)
class ObjectInstance:
    """One annotated object.

    Attributes:
        category: category name after remapping (e.g. ``"trash bin"``).
        index: position among the instances of its category in the source file (0-based).
        box: its oriented bounding box.
    """

    category: str
    index: int
    box: OrientedBox


@dataclass(frozen=True, eq=False)
class Scene:
    """A scene's unified meta-information (same content as one entry of the official meta-info JSON).

    Attributes:
        scene_id: ``scene_name`` of the official files (e.g. ``"scene0207_02"``, ``"41069025"``).
        dataset: source dataset (``arkitscenes``, ``scannet``, ``scannetpp``, ``synthetic``...).
        room_size: floor area, square metres (alpha shape of the scan, App. B.1).
        room_center: (3,) centre of the scan's bounding box, metres.
        objects: category -> its instances, in source order; categories keep source order too.
        counts: category -> verified instance count (the source's ``object_counts``). It is the count of
            record: the official files were hand-checked for counts (App. B.1) and in 11 ScanNet scenes it
            differs from the number of boxes (duplicated or split annotations).
        video_path: the scene's video as the source writes it ("" when none).
        extra: any further top-level fields of the source entry, kept for a faithful round trip.
    """

    scene_id: str
    dataset: str
    room_size: float
    room_center: NDArray[np.float64]
    objects: dict[str, tuple[ObjectInstance, ...]]
    counts: dict[str, int]
    video_path: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def count(self, category: str) -> int:
        """Return the verified number of instances of ``category`` (0 when absent)."""
        return self.counts.get(category, 0)

    def unique_categories(self) -> list[str]:
        """Categories counted once and holding one box, in source order (the paper's "unique objects")."""
        return [c for c, inst in self.objects.items() if self.counts.get(c) == 1 and len(inst) == 1]

    def instances(self, category: str) -> tuple[ObjectInstance, ...]:
        """Instances of ``category``.

        Raises:
            KeyError: the category is not in the scene (the message lists the scene's categories).
        """
        try:
            return self.objects[category]
        except KeyError:
            raise KeyError(
                f"category {category!r} not in scene {self.scene_id!r} (has: {', '.join(self.objects)})"
            ) from None

    def unique_box(self, category: str) -> OrientedBox:
        """Return the box of a category with exactly one instance.

        Raises:
            KeyError: absent category. ValueError: the category has several instances.
        """
        inst = self.instances(category)
        if len(inst) != 1 or self.count(category) != 1:
            raise ValueError(
                f"category {category!r} is not unique in scene {self.scene_id!r} "
                f"(count {self.count(category)}, {len(inst)} boxes)"
            )
        return inst[0].box
