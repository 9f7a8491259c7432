"""Where the synthetic benchmark writes in its folder, so that a run never overwrites a user's file.

The declaration of :mod:`spatialbench.generate.written` for a synthetic benchmark folder: the question
files and their dataset card, the combined meta-info, the scene manifest ``synth_files.json`` and every
file of the run's scenes (:func:`~spatialbench.synth.pipeline.scene_files`), with the journal
``synthetic_files.txt``; any other ``*.jsonl`` is refused too (the VSI-Bench loader reads every one in
the folder as annotations). Before a run renders anything, :func:`claim_folder` refuses a folder
holding such files that no synthetic run recorded (a user's ``test.jsonl``, a ReMindView folder's
``manifest.json``) and records what the run will write. Rendered scenes are reused and stale ones
removed by the renderer's own manifest (:func:`~spatialbench.synth.pipeline.remove_stale`);
:func:`release` removes only recorded files.
"""

from __future__ import annotations

from pathlib import Path

from spatialbench.generate.vsi.folder import QUESTION_FILES
from spatialbench.generate.written import OwnedFiles
from spatialbench.synth.pipeline import META_INFO, WRITTEN, scene_files, scene_ids

__all__ = ["QUESTION_FILES", "SYNTHETIC_FILES", "claim_folder", "planned_files", "release"]

SYNTHETIC_FILES = OwnedFiles(
    "generate synthetic",
    "synthetic_files.txt",
    (*QUESTION_FILES, META_INFO, WRITTEN.name),
    patterns=("*.jsonl",),
)
"""What a synthetic run writes at the top of its folder (module docstring); scene files are planned."""


def planned_files(scenes: int, seed: int) -> list[str]:
    """Return every scene file a run of ``scenes`` scenes from ``seed`` may write (relative paths)."""
    return [name for scene_id in scene_ids(scenes, seed) for name in scene_files(scene_id)]


def claim_folder(out: Path, scenes: int, seed: int) -> set[str]:
    """Refuse ``out`` when it holds files a synthetic run did not write where this run writes; record them.

    Returns the files recorded before this run (what it may replace).

    Raises:
        ForeignFilesError: (:mod:`spatialbench.generate.written`) the message names the foreign files;
            nothing is written then.
    """
    planned = planned_files(scenes, seed)
    own = SYNTHETIC_FILES.check_folder(out, planned)
    out.mkdir(parents=True, exist_ok=True)
    SYNTHETIC_FILES.record(out, own | set(SYNTHETIC_FILES.top_files) | set(planned))
    return own


def release(out: Path, names: tuple[str, ...]) -> None:
    """Remove those of ``names`` (relative paths) that a synthetic run recorded writing, and no other."""
    own = SYNTHETIC_FILES.recorded(out)
    for name in names:
        if name in own:
            (out / name).unlink(missing_ok=True)
