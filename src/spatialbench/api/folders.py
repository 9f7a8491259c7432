"""``spatialbench.open_run`` and ``spatialbench.score`` of a finished run folder.

``score`` here scores run folders only (the run scored as it scored itself,
:meth:`~spatialbench.runs.folder.RunFolder.score`); scoring prediction files is
:mod:`spatialbench.api.scoring`'s, to be joined with it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from spatialbench.records.item import Item
from spatialbench.runs.folder import RunFolder, open_run
from spatialbench.scoring.scorer import ScoreResult


def score(
    run: RunFolder | str | os.PathLike[str],
    *,
    items: Sequence[Item] | None = None,
    extract: str | None = None,
    mra: str | None = None,
    exclude: Iterable[str] = (),
) -> ScoreResult:
    """Return the run folder ``run`` scored as it scored itself (``spatialbench score --run``).

    ``extract`` / ``mra``: other modes than the run's; ``exclude``: item ids left out; ``items``: the
    benchmark's items (default: loaded from the run's data). The result's ``table.average`` is the
    benchmark's average (percent); ``rows`` one row per item.

    Raises:
        RunFolderError: not a run folder, or an unreadable one (the message names the file).
        ValueError: an unknown mode, ``extract`` for a baseline run; SelectionError: ids the items lack.
    """
    folder = run if isinstance(run, RunFolder) else open_run(os.fspath(run))
    return folder.score(items, extract=extract, mra=mra, exclude=exclude)


__all__ = ["open_run", "score"]
