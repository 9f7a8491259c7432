"""Sharded runs (issue 15): ``spatialbench run --shard K/N`` runs a deterministic slice into its own store.

An item belongs to shard ``K`` of ``N`` when ``int(sha1(item id)) % N == K - 1``: the slice depends on the
id alone (not on file order, the machine or the other shards), so N shards run anywhere (a Slurm array, a
Ray job) cover every item exactly once, and ``spatialbench merge`` joins their stores
(:mod:`spatialbench.runs.merge`). ``--ids`` and ``--limit`` apply within the shard: ``--ids`` keeps the
listed ids of the slice, ``--limit N`` the first N items of the slice.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spatialbench.records.rows import LoadedItems

if TYPE_CHECKING:  # config imports this module for its validator
    from spatialbench.benchmarks.spec import BenchmarkSpec
    from spatialbench.runs.config import RunConfig


@dataclass(frozen=True)
class Shard:
    """Slice ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, item_id: str) -> bool:
        """Whether the item with this id belongs to the slice."""
        digest = hashlib.sha1(item_id.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1


def parse_shard(text: str) -> Shard:
    """Parse ``K/N`` (1 <= K <= N).

    Raises:
        ValueError: another form, or K outside 1..N (the message shows the form).
    """
    # ASCII digits only: int() alone accepts "1 /4", "+1/4", "1_0/20" and other scripts' digits
    match = re.fullmatch(r"([0-9]+)/([0-9]+)", text.strip())
    shard = None if match is None else Shard(int(match[1]), int(match[2]))
    if shard is None or not 1 <= shard.index <= shard.count:
        raise ValueError(f"a shard is K/N with 1 <= K <= N (e.g. 1/4), got {text!r}")
    return shard


def shard_ids(ids: Iterable[str], shard: Shard) -> tuple[str, ...]:
    """Return the ids of ``ids`` that belong to ``shard``, in their order."""
    return tuple(i for i in ids if shard.holds(i))


def sharded_spec(spec: BenchmarkSpec, shard: Shard) -> BenchmarkSpec:
    """Return a copy of ``spec`` whose loader keeps only the shard's items (its errors unchanged).

    The loader keeps its signature (``functools.wraps``), so option checks still see the loader's options.
    """
    load = spec.load

    @functools.wraps(load)
    def load_shard(path: Path, **options: Any) -> LoadedItems:
        loaded = load(path, **options)
        return LoadedItems([it for it in loaded if shard.holds(it.id)], loaded.errors)

    return replace(spec, load=load_shard)


def apply_shard(config: RunConfig, spec: BenchmarkSpec) -> tuple[RunConfig, BenchmarkSpec]:
    """Return the config and spec a run of ``config.data.shard`` uses (unchanged without a shard).

    ``data.ids`` keeps the ids of the slice (the others belong to other shards).
    """
    if config.data.shard is None:
        return config, spec
    shard = parse_shard(config.data.shard)
    if config.data.ids is not None:
        config = config.updated("data", ids=shard_ids(config.data.ids, shard))
    return config, sharded_spec(spec, shard)
