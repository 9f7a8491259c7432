"""Raw scan ingestion: ScanNet, ARKitScenes and ScanNet++ folders → official VSI-Bench meta-info (App. B.1).

``ingest(dataset, path, options)`` reads one scan folder or a folder of them; ``SCAN_READERS`` names the
readers (lazy entries: ``scannet``, ``arkitscenes``, ``scannetpp``). Boxes come from instance points
(ScanNet, ScanNet++: gravity-aligned minimum-area boxes) or the annotation (ARKitScenes); room size is the
alpha-shape area of the floor; labels are remapped to the VSI-Bench vocabulary by ``data/labels.json``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from spatialbench.records.progress import Progress, Tally
from spatialbench.registry import Registry
from spatialbench.scene.ingest.build import IngestedScene, IngestError, IngestOptions

Reader = Callable[[Path, IngestOptions], IngestedScene]

#: dataset name -> reader of one scan folder.
SCAN_READERS: Registry[Reader] = Registry("scan format")
SCAN_READERS.lazy("scannet", "spatialbench.scene.ingest.scannet:read_scannet")
SCAN_READERS.lazy("scannetpp", "spatialbench.scene.ingest.scannet:read_scannetpp")
SCAN_READERS.lazy("arkitscenes", "spatialbench.scene.ingest.arkitscenes:read_arkitscenes")

# The file (relative to a scan folder, ``{id}`` = the folder name) that marks a scan folder of each dataset.
_MARKERS = {
    "scannet": "{id}.aggregation.json",
    "scannetpp": "scans/segments_anno.json",
    "arkitscenes": "{id}_3dod_annotation.json",
}


def scan_folders(dataset: str, path: Path) -> list[Path]:
    """``path`` itself when it is a scan folder of ``dataset``, else its scan sub-folders (sorted by name).

    Raises:
        IngestError: no scan folder there (the message names the file looked for).
    """
    marker = _MARKERS[dataset]
    if (path / marker.format(id=path.name)).is_file():
        return [path]
    found = sorted(p for p in path.iterdir() if p.is_dir() and (p / marker.format(id=p.name)).is_file())
    if not found:
        raise IngestError(f"{path}: no {dataset} scan folder (looked for {marker} in it and its sub-folders)")
    return found


def ingest(
    dataset: str, path: Path | str, options: IngestOptions | None = None, progress: Progress | None = None
) -> list[IngestedScene]:
    """Read every scan folder of ``dataset`` at ``path`` (one folder or a folder of folders).

    ``progress``: called with (scans read, scan folders).

    Raises:
        spatialbench.registry.UnknownNameError: unknown dataset. IngestError: unreadable input (named).
    """
    reader = SCAN_READERS.get(dataset)
    folder = Path(path)
    if not folder.is_dir():
        raise IngestError(f"{folder}: not a folder")
    scans = list(scan_folders(dataset, folder))
    return [reader(p, options or IngestOptions()) for p in Tally(len(scans), progress).each(scans)]


__all__ = ["SCAN_READERS", "IngestError", "IngestOptions", "IngestedScene", "ingest", "scan_folders"]
