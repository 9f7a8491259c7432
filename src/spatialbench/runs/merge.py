"""Merging shard runs (issue 15): ``spatialbench merge RUN... --out OUT`` joins the stores of ``--shard K/N``.

Each shard folder holds its own ``run.sqlite`` and ``config.json`` (:mod:`spatialbench.runs.shard`). The
merge refuses shards whose configurations differ in anything that changes what is asked or scored: every
field except the output folder, the shard, its slice of ``--ids`` and the transport settings
(``model.concurrency``, ``model.timeout_s``, ``media.frame_cache_mb``); the model is compared by its served
name (an endpoint's URL differs between machines). It also refuses an incomplete or repeated set of
shards. The merged folder holds every row of the shards (``results``, ``turns``, ``invocations``), a
``config.json`` of the whole run (no shard, ``merged_from`` listing the shards) and the scores of the
union of the shards' items, read as ``score --run`` reads a run folder (the latest ``ok`` answer per item).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbench.records.progress import Progress, Tally
from spatialbench.records.rows import LoadedItems
from spatialbench.runs.checks import RunFolderError, RunSetupError
from spatialbench.runs.config import RunConfig
from spatialbench.runs.folder import CONFIG_NAME, RunFolder, open_run
from spatialbench.runs.identity import comparable, differences
from spatialbench.runs.record import load_run_items
from spatialbench.runs.shard import Shard
from spatialbench.runs.store import RunStore
from spatialbench.runs.store.copy import StoreCopyError, checkpoint, copy_stores
from spatialbench.runs.summary import STORE_NAME
from spatialbench.scoring.output import write_scores
from spatialbench.scoring.scorer import ScoreResult


class MergeError(RunSetupError):
    """Shards that cannot be merged; the message names the folder and the field or shard."""


@dataclass(frozen=True)
class MergeResult:
    """What a merge wrote: the shards, rows copied and the score of the merged run."""

    shards: list[str]
    rows: int
    score: ScoreResult


def read_shard(folder: Path) -> RunFolder:
    """Open a shard folder (:func:`~spatialbench.runs.folder.open_run`).

    Raises:
        MergeError: no ``run.sqlite`` / ``config.json``, a file that is not a run configuration, or a
            run of no shard.
    """
    if not (folder / STORE_NAME).is_file() or not (folder / CONFIG_NAME).is_file():
        raise MergeError(f"{folder}: no {STORE_NAME} and {CONFIG_NAME} (is it the --out folder of a run?)")
    try:
        run = open_run(folder)
        run.store.check()  # a damaged store is refused before --out is made
        _shard(run)
    except RunFolderError as exc:
        raise MergeError(str(exc)) from None
    return run


def _shard(run: RunFolder) -> Shard:
    """Return the shard ``run`` ran (MergeError when it ran none)."""
    shard = run.selection.shard
    if shard is None:
        raise MergeError(f"{run.path}: not a shard run (config.json has no data.shard)")
    return shard


def _comparable(config: dict[str, Any]) -> dict[str, Any]:
    """Return the configuration without the fields shards may differ in (their shard and its ids too)."""
    data = {k: v for k, v in config["data"].items() if k not in ("shard", "ids")}
    return comparable({**config, "data": data})


def check_shards(runs: Sequence[RunFolder]) -> None:
    """Refuse shards of different configurations, counts, or a set that is not exactly 1..N, and baselines.

    Raises:
        MergeError: names the first differing shard folder and fields, or the missing / repeated shards.
    """
    if not runs:
        raise MergeError("no shard folders given")
    first = runs[0]
    if first.baseline is not None:
        raise MergeError(
            f"{first.path}: a chance baseline is scored whole (spatialbench baseline), not merged"
        )
    for other in runs[1:]:
        diffs = differences(_comparable(first.raw_config), _comparable(other.raw_config))
        if diffs:
            raise MergeError(
                f"{other.path}: configuration differs from {first.path}: {'; '.join(diffs[:5])}"
            )
    shards = [_shard(r) for r in runs]
    counts = {s.count for s in shards}
    if len(counts) != 1:
        raise MergeError(f"shards of different counts: {', '.join(str(s) for s in shards)}")
    (count,) = counts
    seen = [s.index for s in shards]
    repeated = sorted({i for i in seen if seen.count(i) > 1})
    missing = sorted(set(range(1, count + 1)) - set(seen))
    if repeated or missing:
        raise MergeError(
            f"shards must be 1/{count} .. {count}/{count} once each: "
            f"repeated {repeated or 'none'}, missing {missing or 'none'}"
        )


def _copy_rows(store_path: Path, runs: Sequence[RunFolder], tally: Tally) -> int:
    """Copy every shard's rows into the new store (a step each); a key in two shards is a MergeError."""
    try:
        return copy_stores(store_path, tally.each([run.path / STORE_NAME for run in runs]))
    except StoreCopyError as exc:
        if exc.duplicate:
            why = f"a row already merged from another shard ({exc})"
            raise MergeError(f"{exc.source.parent}: {why}") from None
        raise MergeError(f"{exc.source}: not a readable run store ({exc})") from None


def merged_config(runs: Sequence[RunFolder], out: Path) -> RunConfig:
    """Return the whole run's configuration: the first shard's, no shard, every shard's ids together."""
    first = runs[0].raw_config
    data = dict(first["data"], shard=None, path=str(Path(first["data"]["path"]).resolve()))
    if data.get("ids") is not None:
        data["ids"] = sorted({i for r in runs for i in r.raw_config["data"]["ids"] or ()})
    return RunConfig.model_validate({**first, "data": data, "out": str(out)})


def merge_runs(folders: Sequence[Path], out: Path, progress: Progress | None = None) -> MergeResult:
    """Merge shard run folders into ``out`` (a new run folder) and score the merged run.

    Everything is checked (shards, ``out``, the benchmark data) before anything is written; the files
    are written in a temporary folder inside ``out`` and renamed into place when all are complete
    (``run.sqlite`` last), so a failed merge leaves ``out`` as it was and a retry is not refused. The
    merged folder's items are its selection read back (:attr:`RunFolder.selection`: each shard's slice,
    its ids and limit), so ``score --run OUT`` scores what the merge scored. ``progress``: called with
    (steps done, shards + 1): one step per shard copied, one for scoring the merged run.

    Raises:
        MergeError: see :func:`check_shards`, :func:`read_shard`; ``out`` already holds a store.
        RunSetupError: the benchmark data of the run cannot be read (the message names ``data.path``).
    """
    runs = sorted((read_shard(Path(f)) for f in folders), key=lambda r: (_shard(r).count, _shard(r).index))
    check_shards(runs)
    if (out / STORE_NAME).exists():
        raise MergeError(f"{out / STORE_NAME} exists: merge into a new --out folder")
    config = merged_config(runs, out)
    try:
        loaded = load_run_items(config, runs[0].spec)
    except RunSetupError as exc:
        raise RunSetupError(f"data.path {config.data.path} (from {runs[0].path}): {exc}") from None
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".merging-", dir=out))
    try:
        rows, score = _write_merged(work, runs, config, loaded, Tally(len(runs) + 1, progress))
        checkpoint(work / STORE_NAME)  # every row in run.sqlite itself
        names = sorted(p.name for p in work.iterdir() if not p.name.startswith(STORE_NAME))
        for name in [*names, STORE_NAME]:
            os.replace(work / name, out / name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return MergeResult([str(_shard(r)) for r in runs], rows, score)


def _write_merged(
    work: Path, runs: Sequence[RunFolder], config: RunConfig, loaded: LoadedItems, tally: Tally
) -> tuple[int, ScoreResult]:
    """Write the merged store, ``config.json`` and the scores into ``work``; return rows copied, score."""
    store_path = work / STORE_NAME
    RunStore(store_path).close()  # the schema
    rows = _copy_rows(store_path, runs, tally)
    record: dict[str, Any] = {
        **runs[0].record,
        "config": config.model_dump(mode="json"),
        "merged_from": [{"folder": str(r.path), "shard": str(_shard(r))} for r in runs],
    }
    (work / CONFIG_NAME).write_text(json.dumps(record, indent=2) + "\n")
    score = open_run(work).score(list(loaded))
    write_scores(score, work)
    tally.step()
    return rows, score
