"""Scenes: oriented boxes, object instances, rooms; official meta-info I/O; geometry; categories."""

from spatialbench.scene.box import OrientedBox, make_box, rotation_z
from spatialbench.scene.metainfo import (
    MetaInfoError,
    box_from_meta,
    box_to_meta,
    load_meta_info,
    scene_from_meta,
    scene_to_meta,
    write_meta_info,
)
from spatialbench.scene.model import ObjectInstance, Scene

__all__ = [
    "MetaInfoError",
    "ObjectInstance",
    "OrientedBox",
    "Scene",
    "box_from_meta",
    "box_to_meta",
    "load_meta_info",
    "make_box",
    "rotation_z",
    "scene_from_meta",
    "scene_to_meta",
    "write_meta_info",
]
