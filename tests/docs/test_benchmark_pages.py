"""Benchmark pages against the code: ReVSI's 13 question types, SITE's TSV columns, every registered benchmark
has a page, and every page has its source, license field, metric and official numbers (issue 24)."""

from __future__ import annotations

import re

import pytest

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


# Issue 24: every benchmark page lists its source, license field, metric and the official numbers to compare
# with, each as a top-level or nested bullet "- **Part**" (a "License field" / "Official numbers to compare
# with" label counts). A license or a figure not found in a named source must be written "not stated in ...".
PARTS = {
    "source": r"Source",
    "license": r"License(?: field)?",
    "metric": r"Metric",
    "official numbers": r"Official numbers(?: to compare with)?",
}
INDEX_PAGES = {"image-benchmarks.md"}  # a table of the image pages, not a benchmark's page
LICENSE_NAME = re.compile(r"apache-2\.0|cc-by[\w.-]*|cc by[\w .-]*|\bmit\b|all rights reserved", re.I)
NOT_STATED = "not stated in"
FIGURE = re.compile(r"\b\d+\.\d+\b")
CITED = re.compile(r"\bcommit [0-9a-f]{7}\b|\bTable \d|\bREADME\b|\bpaper\b|\babstract\b")


def benchmark_pages() -> list[str]:
    return sorted(p.name for p in PAGES.glob("*.md") if p.name not in INDEX_PAGES)


def part(text: str, label: str) -> str | None:
    """The bullet ``- **label**...`` with its continuation lines (deeper indented), or None."""
    found = re.search(rf"^(?P<indent> *)- \*\*{label}\*\*", text, re.M)
    if found is None:
        return None
    indent = len(found["indent"])
    lines = text[found.start():].splitlines()
    body = [lines[0]]
    for line in lines[1:]:
        if not line.strip() or len(line) - len(line.lstrip(" ")) <= indent:
            break
        body.append(line)
    return " ".join(line.strip() for line in body)


def missing_parts(text: str) -> list[str]:
    """The parts issue 24 asks for that ``text`` lacks or leaves without content."""
    missing = [name for name, label in PARTS.items() if part(text, label) is None]
    license_part = part(text, PARTS["license"]) or ""
    if "license" not in missing and NOT_STATED not in license_part and not LICENSE_NAME.search(license_part):
        missing.append("license (no license named, no 'not stated in')")
    numbers = part(text, PARTS["official numbers"]) or ""
    cited = FIGURE.search(numbers) and CITED.search(numbers)
    if "official numbers" not in missing and NOT_STATED not in numbers and not cited:
        missing.append("official numbers (no figure with its source, no 'not stated in')")
    return missing


@pytest.mark.parametrize("page", benchmark_pages())
def test_benchmark_page_has_source_license_metric_and_official_numbers(page: str) -> None:
    assert missing_parts((PAGES / page).read_text(encoding="utf-8")) == []


def test_a_page_missing_a_part_or_its_content_is_reported() -> None:
    full = (
        "- **Source**: Someone et al. (arXiv 0000.00000)\n"
        "- **License field** (dataset card): `apache-2.0`.\n"
        "- **Metric**: accuracy.\n"
        "  - **Official numbers to compare with** (README, commit abcdef1): GPT-4o 31.6; random\n"
        "    guessing 24.1.\n"
    )
    assert missing_parts(full) == []
    assert missing_parts(full.replace("- **Metric**: accuracy.\n", "")) == ["metric"]
    no_source = full.replace("(README, commit abcdef1)", "(somewhere)")
    assert missing_parts(no_source) == ["official numbers (no figure with its source, no 'not stated in')"]
    unstated = full.replace("`apache-2.0`.", "see the card of your copy.")
    assert missing_parts(unstated) == ["license (no license named, no 'not stated in')"]
    # the numbers' bullet ends where its indentation does: a figure in the next bullet does not count
    cut = full.replace(": GPT-4o 31.6; random\n    guessing 24.1.\n", ": see the paper.\n- Tests: 1.5 s\n")
    assert missing_parts(cut) == ["official numbers (no figure with its source, no 'not stated in')"]


def test_every_registered_benchmark_has_a_page() -> None:
    # the built-in names as benchmarks/__init__.py registers them (tests may add others at run time)
    registry = (REPO_ROOT / "src" / "spatialbench" / "benchmarks" / "__init__.py").read_text(encoding="utf-8")
    names = re.findall(r'BENCHMARKS\.lazy\("([^"]+)"', registry)
    assert len(names) == 15
    text = " ".join((PAGES / page).read_text(encoding="utf-8") for page in benchmark_pages())
    assert [name for name in names if f"--benchmark {name}" not in text] == []
