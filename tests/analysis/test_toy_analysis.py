"""A new analysis with a figure is one module plus one registry line; ``spatialbench report`` draws it.

The toy analysis below is written to a module of its own in a temporary folder, registered with one
``ANALYSES.lazy`` line, computed on a chance run and written with ``write_document``; the report then
shows its table and its figure, though nothing in spatialbench names it. A document of an analysis that
is not registered, or of another version, is listed in the report, not drawn.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.analysis.registry import ANALYSES, write_document
from spatialbench.cli.main import app
from spatialbench.runs.folder import open_run
from support.analysis_runs import run
from support.vsi_data import make_vsibench

TOY_MODULE = '''
"""Toy analysis: the share of answered items per task, as a table and a bar chart."""

from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from spatialbench import charts
from spatialbench.analysis.registry import Analysis, AnalysisDocument, DrawnFigure
from spatialbench.scoring.render import Grid


class ToyParams(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    scale: float = 100.0


class ToyAnalysis(Analysis):
    name: ClassVar[str] = "toy-answered"
    description: ClassVar[str] = "share of answered items per task"
    title: ClassVar[str] = "Answered items (toy)"
    Params: ClassVar[type[BaseModel]] = ToyParams

    def compute(self, run, params) -> AnalysisDocument:
        shares = run.rows.groupby("task", sort=True)["answered"].mean() * params.scale
        return AnalysisDocument(analysis=self.name, version=self.version,
                                shares={str(t): float(v) for t, v in shares.items()})

    def tables(self, doc: dict[str, Any]) -> list[Grid]:
        shares = doc["shares"]
        return [Grid(tuple(shares), (("answered (%)", tuple(shares.values())),), "Answered per task")]

    def figures(self, doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
        shares = doc["shares"]
        paths = charts.grouped_bars(list(shares), [("answered", list(shares.values()))], [], "answered",
                                    folder / "answered")
        return [DrawnFigure("Answered items per task (toy)", tuple(paths))]


ANALYSIS = ToyAnalysis()
'''


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``ANALYSES`` as it is, restored after the test; the toy module importable from ``tmp_path``."""
    (tmp_path / "toy_answered.py").write_text(TOY_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(ANALYSES, "_items", dict(ANALYSES._items))
    monkeypatch.setattr(ANALYSES, "_lazy", dict(ANALYSES._lazy))
    yield
    sys.modules.pop("toy_answered", None)


@pytest.fixture
def chance_run(tmp_path: Path) -> Path:
    make_vsibench(tmp_path / "data", n_videos=1, per_video=4)
    run(tmp_path / "data", tmp_path / "run", "chance-frequency")
    return tmp_path / "run"


def _report(run_dir: Path, out: Path) -> str:
    result = CliRunner().invoke(app, ["report", str(run_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return (out / "index.html").read_text()


def test_a_toy_analysis_is_one_module_and_one_registry_line(registry, chance_run, tmp_path) -> None:
    ANALYSES.lazy("toy-answered", "toy_answered:ANALYSIS")  # the one registry line

    doc = ANALYSES.get("toy-answered").run(open_run(chance_run, scored=True), scale=100.0)
    path = write_document(chance_run, doc)
    assert path == chance_run / "analysis" / "toy-answered.json"
    assert json.loads(path.read_text())["shares"] == {"object_counting": 100.0, "object_rel_distance": 100.0}

    index = _report(chance_run, tmp_path / "report")
    figure = "figures/analysis-1-toy-answered/answered.png"
    assert (tmp_path / "report" / figure).is_file()
    assert f'<img src="{figure}"' in index and "Answered items per task (toy)" in index
    assert "<h3>Answered items (toy)</h3>" in index and "<td>answered (%)</td>" in index


def test_documents_not_drawn_are_listed(chance_run, tmp_path) -> None:
    folder = chance_run / "analysis"
    folder.mkdir()
    (folder / "mystery.json").write_text(json.dumps({"analysis": "mystery", "version": 1, "x": [1]}))
    (folder / "old.json").write_text(json.dumps({"analysis": "compare", "version": 9}))
    (folder / "notes.json").write_text(json.dumps({"schema": "something else", "version": 1}))
    (folder / "broken.json").write_text("{not json")

    index = _report(chance_run, tmp_path / "report")
    assert "<h3>mystery.json: not drawn</h3>" in index and "unknown analysis &#39;mystery&#39;" in index
    assert "<h3>old.json: not drawn</h3>" in index and "version 9; this spatialbench draws 1" in index
    assert "<h3>broken.json: not drawn</h3>" in index and "JSONDecodeError" in index
    assert "notes.json" not in index  # not an analysis document: left out
