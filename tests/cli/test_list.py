"""``spatialbench list [KIND]``: every registered name with its one-line description, grouped by kind."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.registry import Registry


def _list(*args: str):
    return CliRunner().invoke(app, ["list", *args])


def _words(rows: list[str]) -> list[list[str]]:
    """Rows as words: the name column is as wide as the longest name (other tests register more)."""
    return [row.split() for row in rows]


@pytest.mark.parametrize(
    ("kind", "line"),
    [
        ("benchmarks", "vsibench    VSI-Bench (Thinking in Space): 8 tasks over ARKitScenes"),
        ("backends", "openai-compatible  openai-compatible:BASE_URL#MODEL, any OpenAI-compatible server"),
        ("strategies", "direct            One turn: the benchmark's request as it is (VSI-Bench Sec. 4.1"),
        ("baselines", "chance-random            Score the expected accuracy of a uniform guess"),
    ],
)
def test_a_kind_lists_its_names_with_descriptions(kind: str, line: str) -> None:
    result = _list(kind)
    assert result.exit_code == 0, result.output
    wanted = " ".join(line.split())
    assert any(" ".join(row).startswith(wanted) for row in _words(result.output.splitlines())), result.output


def test_without_kind_every_kind_is_listed_under_its_heading() -> None:
    result = _list()
    assert result.exit_code == 0, result.output
    rows = result.output.splitlines()
    for heading in ("benchmarks", "backends", "strategies", "analyses", "baselines"):
        assert heading in rows
    mmsi = "mmsi-video MMSI-Video-Bench: 1,106 human-written multiple-choice questions over 1-N videos"
    assert rows.index("benchmarks") < _words(rows).index(mmsi.split())
    assert "hf hf:PATH_OR_NAME, a local Hugging Face model".split() in _words(rows)


def test_listing_back_ends_imports_no_provider_module() -> None:
    code = (
        "import sys; from typer.testing import CliRunner; from spatialbench.cli.main import app; "
        "assert CliRunner().invoke(app, ['list', 'backends']).exit_code == 0; "
        "print(sorted(m for m in sys.modules if m.startswith(('spatialbench.models.', 'openai', 'anthr'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "spatialbench.models.base" in done.stdout
    for provider in ("openai_compat", "gemini", "anthropic", "hf'", "'openai'"):
        assert provider not in done.stdout


def test_a_broken_entry_is_listed_with_its_reason(monkeypatch) -> None:
    from spatialbench.cli import list as listing

    broken: Registry[object] = Registry("benchmark")
    broken.lazy("ghost", "spatialbench_no_such_benchmark:SPEC")
    monkeypatch.setitem(listing.KINDS, "benchmarks", (lambda: broken, True))
    result = _list("benchmarks")
    assert result.exit_code == 0, result.output
    reason = "benchmark 'ghost' (spatialbench_no_such_benchmark:SPEC): no module named"
    assert f"ghost  (cannot be imported: {reason} 'spatialbench_no_such_benchmark')" in result.output


def test_unknown_kind_suggests_near_misses_and_exits_2() -> None:
    result = _list("backend")
    assert result.exit_code == 2
    assert "unknown kind 'backend'; did you mean 'backends'?" in result.output
    assert "Known: analyses, backends, baselines, benchmarks, strategies" in result.output
