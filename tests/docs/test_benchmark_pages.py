"""Benchmark pages name what the loaders read: ReVSI's 13 question types, SITE's TSV columns."""

from __future__ import annotations

import re

from spatialbench.benchmarks.revsi.loader import MCA_TYPES, NA_TYPES
from support.shared_data import REPO_ROOT

PAGES = REPO_ROOT / "docs" / "benchmarks"


def test_revsi_page_lists_the_13_types_the_loader_accepts() -> None:
    text = (PAGES / "revsi.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`((?:object|room|route)_[a-z_]+)`", text))
    assert len(NA_TYPES + MCA_TYPES) == 13
    assert listed == set(NA_TYPES + MCA_TYPES)


def test_site_page_names_the_tsv_columns_the_loader_reads() -> None:
    text = (PAGES / "site.md").read_text(encoding="utf-8")
    tsv = text[text.index("**EASI TSVs**"):text.index("**License field**")]
    image, video = tsv.split("`SiteBenchVideo.tsv` columns")
    # site/loader.py: _item, _media and shared/tsv.py tsv_images read these per part
    for column in ("index", "image", "image_path", "question", "options", "answer", "category"):
        assert f"`{column}`" in image
    for column in ("index", "video_path", "question", "candidates", "answer", "category"):
        assert f"`{column}`" in video
