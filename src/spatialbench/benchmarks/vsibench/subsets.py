"""VSI-Bench's subsets, the values of the loader's ``subset`` option besides ``full`` (``--subset NAME``).

- ``tiny``: VSI-Bench (tiny), the 400 official ids behind the paper's human-level row and analyses
  (:mod:`~spatialbench.benchmarks.vsibench.tiny`); ids the annotations lack become row errors.
- ``debiased``: VSI-Bench-Debiased, the items bias pruning kept; every item needs its pruning flag (a
  ``pruned`` column, or ``pruned_ids=``: the list :mod:`~spatialbench.benchmarks.vsibench.pruned_ids` reads).
"""

from __future__ import annotations

from spatialbench.benchmarks.spec import Subset
from spatialbench.benchmarks.vsibench.tiny import tiny_ids, tiny_subset
from spatialbench.records.rows import LoadedItems

FULL = "full"  # the loader's default: every item, pruning recorded in metadata


def debiased(items: LoadedItems) -> LoadedItems:
    """Keep the items bias pruning kept (``metadata["pruned"]`` false), with the row errors.

    Raises:
        ValueError: an item without pruning information.
    """
    if any("pruned" not in item.metadata for item in items):
        raise ValueError("subset='debiased' needs a 'pruned' column or pruned_ids for every item")
    return LoadedItems([i for i in items if not i.metadata["pruned"]], items.errors)


SUBSETS = (
    Subset(
        "debiased",
        "VSI-Bench-Debiased: the items bias pruning kept (a pruned column or --pruned-ids)",
        debiased,
        label="VSI-Bench-Debiased",
    ),
    Subset(
        "tiny",
        "VSI-Bench (tiny): the 400 ids of the paper's human-level row and analyses (missing ids listed)",
        tiny_subset,
        label="VSI-Bench (tiny)",
        ids=tiny_ids,
    ),
)
#: the loader's ``subset`` values, in the order its error lists them
NAMES = (FULL, *(subset.name for subset in SUBSETS))
