"""Where ``generate remindview`` writes, so a re-run removes what it wrote and nothing else.

The mechanism is :mod:`spatialbench.generate.written`; here only its declaration: the journal
``OUT/remindview_files.txt``, the top-level files, the ``<rig>_outputs/`` folders it fills alone, and any
other ``*.csv`` (the loader reads every QA table in the folder). A run first checks the folder
(:meth:`~spatialbench.generate.written.OwnedFiles.check_folder`), then removes what an earlier run
recorded.
"""

from __future__ import annotations

from spatialbench.generate.written import OwnedFiles
from spatialbench.synth.rigs import Rig

WRITTEN = "remindview_files.txt"
TOP_FILES = ("object_centric_qa.csv", "view_centric_qa.csv", "manifest.json", "statistics.md", "README.md",
             "metadata.jsonl")

REMINDVIEW_FILES = OwnedFiles(
    "generate remindview",
    WRITTEN,
    TOP_FILES,
    folders=tuple(f"{rig.value.replace('-', '_')}_outputs" for rig in Rig),
    patterns=("*.csv",),
)
"""What ``generate remindview`` writes into its ``--out`` (module docstring)."""
