"""Speed figures in the README and docs name the bench script that prints them (issue 25 item 5).

A measured figure — a time, a rate or a memory size next to a word saying it was measured (``load``,
``wall``, ``CPU``, ``median``, ``RSS``, ``% of ideal``...) — must sit in a paragraph (or list item) that
names an existing ``bench/*.py`` script and gives the ``load`` it was measured at. Nothing is timed here:
the pages are read as text. ``docs/cli.md`` is generated from the command line and holds no figures.
"""

from __future__ import annotations

import re
from pathlib import Path

from support.shared_data import REPO_ROOT

BENCH = REPO_ROOT / "bench"

#: a number with a unit of time, rate or memory: "19.4 s", "65–85 items/s", "~4 ms", "400–540 MB", "1.30×"
FIGURE = re.compile(
    r"(?<![\w.@])~?\d[\d,]*(?:\.\d+)?(?:[–-]\d[\d,]*(?:\.\d+)?)? ?"
    r"(?:ms|s|min|items/s|frames/s|requests/s|MB|GB|MiB|GiB|×)(?![\w/])"
)
#: words that make such a number a measurement rather than a setting ("20 s videos", "after 30 s")
MEASURED = re.compile(r"\bload\b|\bwall\b|\bCPU\b|\bmedian\b|\bRSS\b|% of (?:the )?ideal|frames/s|items/s"
                      r"|requests/s|\bmeasured\b|\bspeed\b|\btook\b", re.I)
#: the load the figures were measured at, as a number ("at load 14", "load average 4.7–6.4")
LOAD = re.compile(r"\bload(?: average)?:? ~?\d")
SCRIPT = re.compile(r"\bbench/(\w+\.py)\b")


def _pages() -> list[Path]:
    docs = sorted(p for p in (REPO_ROOT / "docs").rglob("*.md") if p.name != "cli.md")
    return [REPO_ROOT / "README.md", *docs]


def _units(text: str) -> list[str]:
    """Paragraphs and list items (a list item ends where the next one at any depth starts)."""
    units: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        units += [u for u in re.split(r"\n(?=\s*[-*] |\s*\d+\. )", paragraph) if u.strip()]
    return units


def measured_figures(unit: str) -> list[str]:
    """The figures of ``unit`` when it reads as a measurement (else none)."""
    figures = FIGURE.findall(unit)
    # an approximate figure ("~5 MiB") is one measured, whatever the words; a bare range is not
    # ("10–240 min videos")
    approximate = any(f.startswith("~") for f in figures)
    return figures if figures and (approximate or MEASURED.search(unit)) else []


def problems(unit: str) -> list[str]:
    """What a unit with measured figures lacks: an existing bench script, the load it ran at."""
    if not measured_figures(unit):
        return []
    found = []
    scripts = SCRIPT.findall(unit)
    if not scripts:
        found.append("names no bench/*.py script")
    found += [f"bench/{name} does not exist" for name in scripts if not (BENCH / name).is_file()]
    if not LOAD.search(unit):
        found.append("gives no load figure")
    return found


def test_a_unit_with_a_figure_must_name_an_existing_script_and_its_load() -> None:
    bare = "- Speed: 19.4 s on the 2-core development machine, of which 8.4 s the transcripts."
    assert measured_figures(bare) == ["19.4 s", "8.4 s"]
    assert problems(bare) == ["names no bench/*.py script", "gives no load figure"]
    named = "- Speed: `.venv/bin/python bench/report_speed.py`: 17–21 s on the 2-core machine at load 3–5."
    assert problems(named) == []
    assert problems(named.replace("report_speed", "report_sped")) == ["bench/report_sped.py does not exist"]
    # settings and limits are no measurements: no measuring word beside them
    assert measured_figures("T-second 640×480 videos; after 30 s it gets requests again") == []
    assert measured_figures("at 64 KiB, `@2.5s` is refused") == []
    assert measured_figures("`options` (Recall, 10–240 min videos)") == []


def test_units_split_list_items_and_paragraphs() -> None:
    text = "- one 1 s at load 2\n  more\n- two\n  - nested\n\npara\nline"
    assert _units(text) == ["- one 1 s at load 2\n  more", "- two", "  - nested", "para\nline"]


def test_every_figure_in_the_docs_names_its_bench_script() -> None:
    failures, seen = [], 0
    for page in _pages():
        for unit in _units(page.read_text()):
            seen += bool(measured_figures(unit))
            where = page.relative_to(REPO_ROOT)
            failures += [f"{where}: {why}: {unit.strip()[:90]!r}" for why in problems(unit)]
    assert not failures, "\n".join(failures)
    assert seen >= 8  # the pages that quote figures (run, report, generate, score, quickstart...) are read
