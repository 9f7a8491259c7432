"""A third-party package adds a benchmark and an analysis through entry points, editing nothing here.

The test writes the package ``toy-plugin`` (``[project.entry-points."spatialbench.benchmarks"]`` and
``."spatialbench.analyses"``) into a temporary folder and installs it with pip into a temporary venv that
sees this checkout's ``src`` and the current environment's site-packages through a ``.pth`` file (no
network, no build isolation). Every command then runs with the temporary venv's interpreter: ``list``
shows both plugin names, ``run`` / ``score --run`` use the plugin benchmark, the plugin analysis writes
its document through the library, and ``report`` draws it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

import spatialbench

pytestmark = pytest.mark.slow

PYPROJECT = """
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "toy-plugin"
version = "0.1.0"

[project.entry-points."spatialbench.benchmarks"]
toy = "toy_plugin:SPEC"

[project.entry-points."spatialbench.analyses"]
toy-stat = "toy_plugin.analysis:ANALYSIS"

[tool.setuptools]
packages = ["toy_plugin"]
"""

BENCHMARK = '''
"""A toy benchmark: one JSON question per line, text only."""

import json
from pathlib import Path

from spatialbench.benchmarks import BenchmarkSpec
from spatialbench.prompting import PromptBuilder
from spatialbench.records.item import AnswerKind, Item
from spatialbench.records.messages import Request, TextPart
from spatialbench.records.rows import LoadedItems
from spatialbench.scoring import STANDARD_MODES, Group, ScoringRules, grouped

KINDS = ("colour", "count")


def load(path):
    items = LoadedItems()
    for line in Path(path).read_text().splitlines():
        row = json.loads(line)
        options = tuple(f"{chr(65 + i)}. {c}" for i, c in enumerate(row["choices"]))
        items.append(Item(id=row["id"], benchmark="toy", task=row["kind"], question=row["question"],
                          options=options, ground_truth=row["answer"],
                          answer_kind=AnswerKind.MULTIPLE_CHOICE))
    return items


class Builder(PromptBuilder):
    def build(self, item, media):
        return Request(parts=(TextPart("\\n".join([item.question, *item.options])),))


def table(rows):
    return grouped(rows, [Group.of(k.title(), k, task=k) for k in KINDS], weighting="questions")


SPEC = BenchmarkSpec(name="toy", description="toy colour questions from a plugin", load=load,
                     prompt_builder=Builder,
                     scoring=ScoringRules(name="toy", table=table, modes=STANDARD_MODES))
'''

ANALYSIS = '''
"""A toy analysis: how many items the run scored and the share it answered, one table and one figure."""

from matplotlib.figure import Figure

from spatialbench.analysis.registry import Analysis, AnalysisDocument, DrawnFigure
from spatialbench.scoring.render import Grid


class ToyStat(Analysis):
    name = "toy-stat"
    description = "share of answered items, from a plugin"
    title = "Toy statistic"
    version = 1

    def compute(self, run, params):
        rows = run.rows
        return AnalysisDocument(analysis=self.name, version=self.version, items=len(rows),
                                answered=float(rows["answered"].mean()),
                                mean_score=float(rows["score"].mean()))

    def tables(self, doc):
        values = (doc["items"], 100.0 * doc["answered"], 100.0 * doc["mean_score"])
        return [Grid(header=("items", "answered %", "score %"), rows=(("toy-run", values),),
                     title="Toy statistic table")]

    def figures(self, doc, folder):
        figure = Figure(figsize=(2, 2))
        figure.subplots().bar(["answered"], [doc["answered"]])
        path = folder / "toy-stat.png"
        figure.savefig(path)
        return [DrawnFigure("Toy share of answered items", (path,))]


ANALYSIS = ToyStat()
'''

QUESTIONS = [
    {"id": "q1", "kind": "colour", "question": "Sky colour?", "choices": ["red", "blue"], "answer": "B"},
    {"id": "q2", "kind": "colour", "question": "Grass colour?", "choices": ["green", "pink"], "answer": "A"},
    {"id": "q3", "kind": "count", "question": "Cat legs?", "choices": ["2", "4", "6", "8"], "answer": "B"},
]

WRITE_DOCUMENT = """
import sys
from pathlib import Path

from spatialbench.analysis.registry import ANALYSES, write_document
from spatialbench.runs.folder import open_run

run = Path(sys.argv[1])
print(write_document(run, ANALYSES.get("toy-stat").run(open_run(run))))
"""

Command = Callable[..., subprocess.CompletedProcess[str]]


def _make_venv(root: Path) -> Path:
    """A venv without pip that sees this checkout's src, then the current site-packages (pip, setuptools)."""
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(root)], check=True, timeout=120)
    python = root / "bin" / "python"
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    src = Path(spatialbench.__file__).resolve().parents[1]
    here = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    Path(purelib, "spatialbench_checkout.pth").write_text("\n".join([str(src), *here]) + "\n")
    return python


def _write_package(root: Path) -> Path:
    (root / "toy_plugin").mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "toy_plugin" / "__init__.py").write_text(BENCHMARK)
    (root / "toy_plugin" / "analysis.py").write_text(ANALYSIS)
    return root


@pytest.fixture(scope="module")
def plugin_venv(tmp_path_factory) -> tuple[Command, Path]:
    """(run a command with the temporary venv's python, the work folder) with ``toy-plugin`` installed."""
    root = tmp_path_factory.mktemp("plugins")
    python = _make_venv(root / "venv")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", MPLBACKEND="Agg")

    def command(*args: str | Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(python), *map(str, args)], capture_output=True, text=True, env=env,
                              cwd=root, timeout=180)

    package = _write_package(root / "toy-plugin")
    installed = command("-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index", package)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    where = command("-c", "import spatialbench as s, toy_plugin as t; print(s.__file__, t.__file__)")
    assert where.returncode == 0, where.stderr
    checkout, plugin = where.stdout.split()
    assert Path(checkout).resolve() == Path(spatialbench.__file__).resolve()
    assert Path(plugin).is_relative_to(root / "venv")  # installed, not read from the package folder
    return command, root


def _cli(command: Command, *args: str | Path) -> str:
    done = command("-m", "spatialbench.cli.main", *args)
    assert done.returncode == 0, f"{args}: {done.stdout}{done.stderr}"
    return done.stdout


def test_list_shows_the_plugin_benchmark_and_analysis(plugin_venv) -> None:
    command, _ = plugin_venv
    benchmarks = _cli(command, "list", "benchmarks").splitlines()
    # columns are as wide as the longest name: compare words
    wanted = "toy toy colour questions from a plugin [plugin: toy-plugin]".split()
    assert wanted in [line.split() for line in benchmarks]
    assert any(line.startswith("vsibench ") for line in benchmarks)
    everything = _cli(command, "list")
    line = "toy-stat  share of answered items, from a plugin  [plugin: toy-plugin]"
    assert line.split() in [shown.split() for shown in everything.splitlines()]  # columns align to the names


@pytest.fixture(scope="module")
def toy_run(plugin_venv) -> Path:
    """A chance-random run of the plugin benchmark, scored, with the plugin analysis's document."""
    command, root = plugin_venv
    data = root / "toy.jsonl"
    data.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    out = root / "run"
    _cli(command, "run", "--benchmark", "toy", "--data", data, "--model", "chance-random", "--out", out,
         "--no-progress")
    written = command("-c", textwrap.dedent(WRITE_DOCUMENT), out)
    assert written.returncode == 0, written.stderr
    return out


def test_run_and_score_use_the_plugin_benchmark(plugin_venv, toy_run: Path) -> None:
    command, _ = plugin_venv
    scores = json.loads((toy_run / "scores.json").read_text())
    assert scores["benchmark"] == "toy" and scores["n_items"] == 3
    assert scores["colour"] == 50.0 and scores["count"] == 25.0  # 1 / number of options
    rescored = _cli(command, "score", "--run", toy_run)
    assert "| all | 41.7 | 50.0 | 25.0 |" in rescored


def test_the_plugin_analysis_writes_its_document(toy_run: Path) -> None:
    doc = json.loads((toy_run / "analysis" / "toy-stat.json").read_text())
    assert doc == {"analysis": "toy-stat", "version": 1, "items": 3, "answered": 1.0,
                   "mean_score": pytest.approx(1.25 / 3)}


@pytest.fixture(scope="module")
def toy_report(plugin_venv, toy_run: Path) -> Path:
    """``spatialbench report RUN --out REPORT`` of the plugin run; returns REPORT."""
    command, root = plugin_venv
    report = root / "report"
    _cli(command, "report", toy_run, "--out", report)
    return report


def test_report_uses_the_plugin_benchmark(toy_report: Path) -> None:
    page = (toy_report / "index.html").read_text()
    assert "<h1>toy report</h1>" in page and "1 run(s) of <b>toy</b> · 3 item(s)" in page
    assert sorted(p.name for p in (toy_report / "items").glob("q*.html")) == ["q1.html", "q2.html", "q3.html"]


def test_report_draws_the_plugin_analysis(toy_report: Path) -> None:
    page = (toy_report / "index.html").read_text()
    assert "Toy statistic table" in page and "Toy share of answered items" in page
    assert list(toy_report.rglob("toy-stat*.png"))
