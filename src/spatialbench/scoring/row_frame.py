"""Per-item score columns as pandas Series: text columns converted (and looked up) by Arrow in C passes.

``pd.Series(cells)`` on a million texts spends most of its time inferring the type cell by cell before
pandas (3.x: a text column is ``str``, Arrow-backed) converts them; :func:`column` sees in one pass that
every cell is a text (or None), converts them with ``pyarrow.array`` and returns the Series pandas would
have returned: same dtype, same values (None → NaN). Anything else, and a pandas whose text columns are
``object`` or not Arrow-backed, goes through ``pd.Series(cells)`` as before.

:func:`arrow_texts` and :func:`positions` read such a column back by Arrow; :class:`Labels` holds one as
integer codes (the intervals' tasks and scenes, :mod:`~spatialbench.scoring.uncertainty`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

_TEXT_KINDS = ({str}, {str, type(None)})


def column(cells: Any) -> pd.Series:
    """Return ``pd.Series(cells)`` (module docstring): the same Series, faster for a list of texts."""
    text = pd.Series(["text"]).dtype  # what this pandas (and its options) makes of texts
    if isinstance(cells, list) and cells and getattr(text, "storage", None) == "pyarrow":
        if set(map(type, cells)) in _TEXT_KINDS:
            try:
                return pd.Series(pa.array(cells, type=pa.large_string()), dtype=text)
            except (pa.ArrowException, UnicodeError):  # e.g. a lone surrogate: pandas decides, as before
                pass
    return pd.Series(cells)


def text_column(cells: list[str | None]) -> pd.Series:
    """Return :func:`column` of cells the caller knows are texts or None (item fields): no type pass."""
    text = pd.Series(["text"]).dtype
    if cells and getattr(text, "storage", None) == "pyarrow":
        try:
            return pd.Series(pa.array(cells, type=pa.large_string()), dtype=text)
        except (pa.ArrowException, UnicodeError):  # not texts after all, or a lone surrogate: as column()
            pass
    return column(cells)


def arrow_texts(texts: pd.Series) -> pa.Array:
    """Return an Arrow-backed text Series' values as one Arrow array (a chunked column's chunks joined)."""
    found = pa.array(texts.array)
    return found.combine_chunks() if isinstance(found, pa.ChunkedArray) else found


def positions(keys: pd.Series, names: list[str]) -> np.ndarray:
    """Return each text of ``keys``'s position in ``names`` (-1 when not there), shape ``(len(keys),)``.

    An Arrow text column is looked up by Arrow (``index_in``): no Python string is made per row.
    """
    if isinstance(keys.array, pd.arrays.ArrowStringArray):
        texts = pa.array(keys.array)
        found = pc.index_in(texts, value_set=pa.array(names, type=texts.type))
        return np.asarray(found.fill_null(-1).to_numpy(zero_copy_only=False), dtype=np.intp)
    return pd.Index(names).get_indexer(keys.to_numpy(dtype=object))


class Labels:
    """A column of texts as integer codes: ``labels(t)`` is ``column == t`` by an integer comparison.

    An Arrow text Series is factorized by Arrow: no Python string made per row (a million rows: ~0.2 s).
    """

    def __init__(self, column: np.ndarray | pd.Series) -> None:
        self.codes, names = pd.factorize(column)
        self.names = np.asarray(names, dtype=object)
        self.code_of = {name: code for code, name in enumerate(self.names.tolist())}

    def __call__(self, label: str) -> np.ndarray:
        """Return ``column == label`` (bool, one per row)."""
        return self.codes == self.code_of.get(label, -2)  # -2: no row's code (a NaN's is -1)

    def sorted_in(self, mask: np.ndarray) -> list[str]:
        """Return ``sorted(set(column[mask]))``."""
        return sorted(self.names[self._present(mask)[1:]].tolist())

    def count_in(self, mask: np.ndarray) -> int:
        """Return ``len(set(column[mask]))`` (a NaN counted once)."""
        return int(np.count_nonzero(self._present(mask)))

    def columns_in(self, columns: Mapping[str, int]) -> np.ndarray:
        """Return each row's column of its label in ``columns`` (KeyError for a label not there)."""
        return np.asarray([columns[name] for name in self.names.tolist()], dtype=np.int64)[self.codes]

    def _present(self, mask: np.ndarray) -> np.ndarray:
        """Whether each code (-1 for NaN first, then each name's) occurs in ``mask``: counted, not sorted."""
        return np.bincount(self.codes[mask] + 1, minlength=len(self.names) + 1) > 0
