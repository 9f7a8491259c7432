"""Shared inputs of the stress-test tests: the official 300-question VSI-Bench sample (shared data)."""

from __future__ import annotations

import pytest

from spatialbench.benchmarks import get_benchmark
from spatialbench.records.rows import LoadedItems
from support.shared_data import require_file, shared_data_dir


@pytest.fixture(scope="session")
def subset_300() -> LoadedItems:
    path = require_file(shared_data_dir() / "vsibench" / "official_samples" / "subset_300.jsonl")
    return get_benchmark("vsibench").load_items(path)
