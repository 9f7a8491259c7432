"""A run file that points at another folder's run must not change that run (issue 22 item 6).

A run records ``out`` absolute, so a copy of ``RUN/config.json`` kept elsewhere still names RUN. Running
the copy with other settings (``--limit 2``, other ``--ids`` or subset) would rewrite RUN's
``config.json`` and scores with a run its owner never asked for. So when the run file is a run's record
(:func:`~spatialbench.runs.config_file.is_run_record`) other than the folder's own and no ``--out`` was
given, the settings must be those RUN recorded. A YAML or TOML run file is its user's: editing it (or
laying ``--limit`` over it) extends the run it names, as ``--out RUN`` with the copy does. The same
settings resume it; any other (except where it runs, :data:`~spatialbench.runs.identity.TRANSPORT`) is
refused before anything is written, naming the folder and each differing field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spatialbench.runs.config import RunConfig
from spatialbench.runs.config_file import is_run_record
from spatialbench.runs.folder import CONFIG_NAME
from spatialbench.runs.identity import OtherRunError, comparable, differences
from spatialbench.runs.record import recorded_config

SHOWN = 5


def _stored(record: Path) -> dict[str, Any] | None:
    """Return the run configuration recorded in ``record``, defaults filled in; None when unreadable."""
    try:
        stored = json.loads(record.read_text(encoding="utf-8")).get("config")
        return recorded_config(RunConfig.model_validate(stored))
    except (OSError, ValueError, AttributeError):  # no record to protect: the store's own checks apply
        return None


def check_pointed_run(config_file: Path, config: RunConfig) -> None:
    """Refuse ``config`` (read from ``config_file``) when it would change the run stored in its ``out``.

    Raises:
        OtherRunError: ``config_file`` is a copy of a run's record and ``out`` holds a run recorded
            with other settings; the message names the folder, the fields and ``--out``.
    """
    out = Path(config.out).absolute()
    record = out / CONFIG_NAME
    if not record.is_file() or record.resolve() == config_file.resolve() or not is_run_record(config_file):
        return
    stored = _stored(record)
    if stored is None:
        return
    diffs = differences(comparable(stored), comparable(recorded_config(config)))
    if diffs:
        more = f"; and {len(diffs) - SHOWN} more" if len(diffs) > SHOWN else ""
        raise OtherRunError(
            f"{config_file} points at the run in {out}, which was recorded with other settings "
            f"({'; '.join(diffs[:SHOWN])}{more}); that run is left as it is: give --out NEW to run these "
            "settings in a new folder"
        )
