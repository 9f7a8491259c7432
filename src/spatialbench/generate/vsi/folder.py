"""Where ``generate vsibench`` writes in its ``--out``, so that a run never overwrites a user's file.

The declaration of :mod:`spatialbench.generate.written` for a folder of generated VSI-Bench questions:
the question files and their dataset card (:data:`QUESTION_FILES`), with the journal
``vsibench_files.txt`` and, with ``--debias``, the re-draw report :data:`DEBIAS_FILE` (a later run
without it removes the earlier one, which would describe other questions); any other ``*.jsonl`` is
refused too (the VSI-Bench loader reads every one in the folder as annotations). A folder another
generator wrote (a ReMindView folder's ``manifest.json``) or a user's ``README.md`` is refused before
anything is generated.
"""

from __future__ import annotations

from pathlib import Path

from spatialbench.generate.card import CARD_NAME
from spatialbench.generate.written import OwnedFiles

QUESTION_FILES = ("test.jsonl", "test.parquet", "manifest.json", CARD_NAME)
"""The question files of a generated VSI-Bench folder and their card (``write_benchmark``)."""

DEBIAS_FILE = "debias.json"
"""``generate vsibench --debias``'s report: TsT accuracy per type before and after the re-draws."""

VSIBENCH_FILES = OwnedFiles(
    "generate vsibench", "vsibench_files.txt", (*QUESTION_FILES, DEBIAS_FILE), patterns=("*.jsonl",)
)
"""What ``generate vsibench`` writes into its ``--out`` (module docstring)."""


def claim_folder(out: Path, debias: bool = False) -> None:
    """Refuse ``out`` when it holds files ``generate vsibench`` did not write where it writes; record them.

    ``debias``: this run writes :data:`DEBIAS_FILE`; without it an earlier run's is removed.

    Raises:
        ForeignFilesError: (:mod:`spatialbench.generate.written`) the message names the foreign files;
            nothing is written then.
    """
    own = VSIBENCH_FILES.check_folder(out)
    out.mkdir(parents=True, exist_ok=True)
    if not debias and DEBIAS_FILE in own:
        (out / DEBIAS_FILE).unlink(missing_ok=True)
        own.discard(DEBIAS_FILE)
    VSIBENCH_FILES.record(out, own | set(QUESTION_FILES) | ({DEBIAS_FILE} if debias else set()))
