"""``spatialbench.open_run`` and ``spatialbench.score``: a finished run folder, or a predictions file, scored.

``score(run)`` is the run scored as it scored itself (:meth:`~spatialbench.runs.folder.RunFolder.score`);
``score(predictions=..., annotations=...)`` scores a predictions file as ``spatialbench score -p`` does
(:func:`spatialbench.api.scoring.score`, which also returns the notes a command prints).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from spatialbench.api import scoring
from spatialbench.api.scoring import ScoreInputError
from spatialbench.records.item import Item
from spatialbench.runs.folder import RunFolder, open_run
from spatialbench.scoring.scorer import ScoreResult


def score(
    run: RunFolder | str | os.PathLike[str] | None = None,
    *,
    predictions: str | os.PathLike[str] | None = None,
    annotations: str | os.PathLike[str] | None = None,
    benchmark: str | None = None,
    items: Sequence[Item] | None = None,
    extract: str | None = None,
    mra: str | None = None,
    exclude: Iterable[str] = (),
    **file_options: Any,
) -> ScoreResult:
    """Score a run folder as it scored itself (``score --run``), or a predictions file (``score -p``).

    With ``run``: ``extract`` / ``mra`` are other modes than the run's, ``exclude`` item ids left out,
    ``items`` the benchmark's items (default: loaded from the run's data). With ``predictions`` (and
    ``annotations``, ``benchmark`` default ``vsibench``): ``file_options`` are those of
    :func:`spatialbench.api.scoring.score` (``pruned_ids``, ``subset``, ``predictions_format``,
    ``response_field``). The result's ``table.average`` is the benchmark's average (percent), ``rows``
    one row per item.

    Raises:
        ScoreInputError: both or neither of ``run`` and ``predictions``, or options of the other form.
        RunFolderError: not a run folder, or an unreadable one (the message names the file).
        ValueError: an unknown mode, ``extract`` for a baseline run; SelectionError: ids the items lack.
        NothingScoredError: no prediction of the file matches an item.
    """
    if (run is None) == (predictions is None):
        raise ScoreInputError("give exactly one of a run folder and predictions=")
    if predictions is not None:
        if items is not None or exclude:
            raise ScoreInputError("items= and exclude= apply to a run folder (a flags file: "
                                  "spatialbench.api.scoring.score(exclude=PATH))")
        given = None if annotations is None else Path(annotations)
        return scoring.score(benchmark, given, Path(predictions), extract=extract, mra=mra,
                             **file_options).result
    if benchmark is not None or annotations is not None or file_options:
        raise ScoreInputError("a run folder is scored with its own benchmark and data; give only "
                              "items=, extract=, mra=, exclude=")
    assert run is not None
    folder = run if isinstance(run, RunFolder) else open_run(os.fspath(run))
    return folder.score(items, extract=extract, mra=mra, exclude=exclude)


__all__ = ["open_run", "score"]
