import json

import pytest

from spatialbench.scene import load_meta_info


@pytest.fixture(scope="session")
def official_scenes(shared_data):
    return load_meta_info(shared_data / "vsibench" / "meta_info")


@pytest.fixture(scope="session")
def official_rows(shared_data):
    path = shared_data / "vsibench" / "official_samples" / "subset_300.jsonl"
    return {r["id"]: r for r in map(json.loads, path.read_text().splitlines())}
