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
import sqlite3
import tempfile
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbench.benchmarks import get_benchmark
from spatialbench.records.item import Item
from spatialbench.runs.baseline import baseline_name
from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.config import RunConfig
from spatialbench.runs.keys import model_identity
from spatialbench.runs.plan import select_items
from spatialbench.runs.record import load_run_items
from spatialbench.runs.results import CONFIG_NAME, run_responses
from spatialbench.runs.shard import Shard, parse_shard, shard_ids
from spatialbench.runs.store import RunStore
from spatialbench.runs.summary import STORE_NAME
from spatialbench.scoring.output import write_scores
from spatialbench.scoring.scorer import ScoreResult, score_items

#: configuration fields that may differ between shards (where the shard ran, not what it asked)
TRANSPORT = (("model", "concurrency"), ("model", "timeout_s"), ("media", "frame_cache_mb"))
_TABLES = {"results": None, "turns": None, "invocations": "started_at, config, environment, backend"}


class MergeError(RunSetupError):
    """Shards that cannot be merged; the message names the folder and the field or shard."""


@dataclass(frozen=True)
class ShardRun:
    """One shard folder: its recorded configuration (``config.json``'s ``config``) and record."""

    folder: Path
    config: dict[str, Any]
    record: dict[str, Any]

    @property
    def shard(self) -> Shard:
        """The shard this folder ran (MergeError when it ran none)."""
        text = self.config["data"].get("shard")
        if text is None:
            raise MergeError(f"{self.folder}: not a shard run (config.json has no data.shard)")
        return parse_shard(text)


@dataclass(frozen=True)
class MergeResult:
    """What a merge wrote: the shards, rows copied and the score of the merged run."""

    shards: list[str]
    rows: int
    score: ScoreResult


def read_shard(folder: Path) -> ShardRun:
    """Read a shard folder's ``config.json``.

    Raises:
        MergeError: no ``run.sqlite`` / ``config.json``, or a file that is not a run configuration.
    """
    path = folder / CONFIG_NAME
    if not (folder / STORE_NAME).is_file() or not path.is_file():
        raise MergeError(f"{folder}: no {STORE_NAME} and {CONFIG_NAME} (is it the --out folder of a run?)")
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        config = record["config"]
        config["data"]["benchmark"]  # noqa: B018  (a run configuration has one)
    except (ValueError, KeyError, TypeError) as exc:
        raise MergeError(f"{path}: not a run configuration ({type(exc).__name__}: {exc})") from None
    return ShardRun(folder, config, record)


def _comparable(config: dict[str, Any]) -> dict[str, Any]:
    """Return the configuration without the fields shards may differ in."""
    data = {k: v for k, v in config["data"].items() if k not in ("shard", "ids")}
    data["path"] = str(Path(data["path"]).resolve())  # 'x/b' typed in /w and '/w/x/b' are one folder
    view = {**config, "data": data, "out": None}
    for section, key in TRANSPORT:
        view[section] = {k: v for k, v in view.get(section, {}).items() if k != key}
    view["model"] = {**view["model"], "name": model_identity(str(view["model"]["name"]))}
    return view


def _differences(a: Any, b: Any, path: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(set(a) | set(b))
        return [d for k in keys for d in _differences(a.get(k), b.get(k), f"{path}.{k}" if path else k)]
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]


def check_shards(runs: Sequence[ShardRun]) -> None:
    """Refuse shards of different configurations, counts, or a set that is not exactly 1..N, and baselines.

    Raises:
        MergeError: names the first differing shard folder and fields, or the missing / repeated shards.
    """
    if not runs:
        raise MergeError("no shard folders given")
    first = runs[0]
    if baseline_name(str(first.config["model"]["name"])) is not None:
        raise MergeError(
            f"{first.folder}: a chance baseline is scored whole (spatialbench baseline), not merged"
        )
    for other in runs[1:]:
        diffs = _differences(_comparable(first.config), _comparable(other.config))
        if diffs:
            raise MergeError(
                f"{other.folder}: configuration differs from {first.folder}: {'; '.join(diffs[:5])}"
            )
    counts = {r.shard.count for r in runs}
    if len(counts) != 1:
        raise MergeError(f"shards of different counts: {', '.join(str(r.shard) for r in runs)}")
    (count,) = counts
    seen = [r.shard.index for r in runs]
    repeated = sorted({i for i in seen if seen.count(i) > 1})
    missing = sorted(set(range(1, count + 1)) - set(seen))
    if repeated or missing:
        raise MergeError(
            f"shards must be 1/{count} .. {count}/{count} once each: "
            f"repeated {repeated or 'none'}, missing {missing or 'none'}"
        )


def _copy_rows(store_path: Path, runs: Sequence[ShardRun]) -> int:
    """Copy every shard's rows into the new store; a request key in two shards is a MergeError."""
    copied = 0
    with closing(sqlite3.connect(store_path)) as conn:
        for run in runs:
            conn.execute("ATTACH DATABASE ? AS shard", (f"file:{run.folder / STORE_NAME}?mode=ro",))
            try:
                for table, columns in _TABLES.items():
                    cols = columns or "*"
                    copied += conn.execute(
                        f"INSERT INTO main.{table} {f'({cols})' if columns else ''} "
                        f"SELECT {cols} FROM shard.{table}"
                    ).rowcount
            except sqlite3.IntegrityError as exc:
                raise MergeError(f"{run.folder}: a row already merged from another shard ({exc})") from None
            except sqlite3.Error as exc:
                raise MergeError(f"{run.folder / STORE_NAME}: not a readable run store ({exc})") from None
            finally:
                conn.commit()
                conn.execute("DETACH DATABASE shard")
    return copied


def merged_config(runs: Sequence[ShardRun], out: Path) -> RunConfig:
    """Return the whole run's configuration: the first shard's, no shard, every shard's ids together."""
    data = dict(runs[0].config["data"], shard=None, path=str(Path(runs[0].config["data"]["path"]).resolve()))
    if data.get("ids") is not None:
        data["ids"] = sorted({i for r in runs for i in r.config["data"]["ids"] or ()})
    return RunConfig.model_validate({**runs[0].config, "data": data, "out": str(out)})


def _selected(config: RunConfig, runs: Sequence[ShardRun]) -> list[Item]:
    """Return the union of the shards' selected items in benchmark order (ids, limit apply per shard)."""
    loaded = load_run_items(config, get_benchmark(config.data.benchmark))
    chosen: set[str] = set()
    for run in runs:
        shard = run.shard
        ids = run.config["data"].get("ids")
        part = [it for it in loaded if shard.holds(it.id)]
        chosen |= {
            it.id for it in select_items(part, shard_ids(ids, shard) if ids else None, config.data.limit)
        }
    return [it for it in loaded if it.id in chosen]


def merge_runs(folders: Sequence[Path], out: Path) -> MergeResult:
    """Merge shard run folders into ``out`` (a new run folder) and score the merged run.

    Everything is checked (shards, ``out``, the benchmark data) before anything is written; the files
    are written in a temporary folder inside ``out`` and renamed into place when all are complete
    (``run.sqlite`` last), so a failed merge leaves ``out`` as it was and a retry is not refused.

    Raises:
        MergeError: see :func:`check_shards`, :func:`read_shard`; ``out`` already holds a store.
        RunSetupError: the benchmark data of the run cannot be read (the message names ``data.path``).
    """
    runs = sorted((read_shard(Path(f)) for f in folders), key=lambda r: (r.shard.count, r.shard.index))
    check_shards(runs)
    if (out / STORE_NAME).exists():
        raise MergeError(f"{out / STORE_NAME} exists: merge into a new --out folder")
    config = merged_config(runs, out)
    try:
        selected = _selected(config, runs)
    except RunSetupError as exc:
        raise RunSetupError(f"data.path {config.data.path} (from {runs[0].folder}): {exc}") from None
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".merging-", dir=out))
    try:
        rows, score = _write_merged(work, runs, config, selected)
        with closing(sqlite3.connect(work / STORE_NAME)) as conn:  # every row in run.sqlite itself
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        names = sorted(p.name for p in work.iterdir() if not p.name.startswith(STORE_NAME))
        for name in [*names, STORE_NAME]:
            os.replace(work / name, out / name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return MergeResult([str(r.shard) for r in runs], rows, score)


def _write_merged(
    work: Path, runs: Sequence[ShardRun], config: RunConfig, selected: list[Item]
) -> tuple[int, ScoreResult]:
    """Write the merged store, ``config.json`` and the scores into ``work``; return rows copied, score."""
    store_path = work / STORE_NAME
    RunStore(store_path).close()  # the schema
    rows = _copy_rows(store_path, runs)
    record = {
        **runs[0].record,
        "config": config.model_dump(mode="json"),
        "merged_from": [{"folder": str(r.folder), "shard": str(r.shard)} for r in runs],
    }
    (work / CONFIG_NAME).write_text(json.dumps(record, indent=2) + "\n")
    spec = get_benchmark(config.data.benchmark)
    score = score_items(
        selected, run_responses(work), spec.scoring, extract=config.scoring.extract, mra=config.scoring.mra
    )
    write_scores(score, work)
    return rows, score
