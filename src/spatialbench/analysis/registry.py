"""Analyses as registered parts: one :data:`ANALYSES` registry, one :class:`Analysis` type.

An analysis declares its ``name``, a one-line ``description``, a document ``version``, its typed parameters
(a frozen pydantic model, :attr:`Analysis.Params`), and

* :meth:`Analysis.compute` ``(run, params) -> AnalysisDocument``: reads a
  :class:`~spatialbench.runs.folder.RunFolder` (never re-sends a request unless the analysis asks a model,
  e.g. a judge) and returns a versioned document;
* :meth:`Analysis.tables` ``(doc) -> [Grid]``: its tables, rendered by the one table renderer
  (:mod:`spatialbench.scoring.render`: Markdown, CSV, JSON, LaTeX);
* :meth:`Analysis.figures` ``(doc, folder) -> [DrawnFigure]``: its figures, drawn into ``folder`` (one
  folder per document; the generic charts are in :mod:`spatialbench.charts`);
* :meth:`Analysis.heading` ``(doc) -> str``: the report's heading of the document (``title`` by default).

The document is written to ``RUN/analysis/<file>.json`` (:func:`write_document`; ``file`` defaults to the
name); the report reads every ``RUN/analysis/*.json`` and draws each document whose ``analysis`` is
registered and whose ``version`` is the analysis's (others are listed, not drawn), so a new analysis
with a figure is one module plus one registry line (``ANALYSES.lazy("name", "package.module:ANALYSIS")``,
or an entry point of group ``spatialbench.analyses`` in another package).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from spatialbench.benchmarks import get_benchmark
from spatialbench.errors import SpatialBenchError
from spatialbench.records.progress import Progress
from spatialbench.registry import Registry
from spatialbench.runs.folder import RunFolder
from spatialbench.scoring.render import Grid

ANALYSIS_DIR = "analysis"


class AnalysisDocument(BaseModel):
    """The JSON an analysis writes: its ``analysis`` name and document ``version``, then its own fields."""

    model_config = ConfigDict(extra="allow")

    analysis: str
    version: int


class NoParams(BaseModel):
    """Parameters of an analysis that takes none."""

    model_config = ConfigDict(frozen=True, extra="forbid")


@dataclass(frozen=True)
class DrawnFigure:
    """A figure an analysis drew: its caption and the files written (PNG first, then SVG)."""

    caption: str
    paths: tuple[Path, ...]


class BenchmarkMismatchError(SpatialBenchError, ValueError):
    """An analysis of one paper asked of a run of another benchmark (exit 2; nothing sent or written)."""


class Analysis:
    """Base of a registered analysis (subclass it; register an instance).

    Class attributes: ``name`` (registered name, also the document's ``analysis``), ``description``
    (one line for ``spatialbench list analyses``), ``version`` (of the document), ``Params`` (a frozen
    pydantic model of the parameters, :class:`NoParams` by default), ``title`` (the report's heading),
    ``file`` (stem of the document in ``RUN/analysis/``, the name by default), ``benchmarks`` (the
    registered benchmarks whose runs it applies to; empty: any) and ``section`` (where their paper
    defines it, named in the refusal).
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    title: ClassVar[str] = ""
    version: ClassVar[int] = 1
    file: ClassVar[str] = ""
    Params: ClassVar[type[BaseModel]] = NoParams
    benchmarks: ClassVar[tuple[str, ...]] = ()
    section: ClassVar[str] = ""

    def compute(self, run: RunFolder, params: BaseModel) -> AnalysisDocument:
        """Compute the analysis of ``run`` (raises the analysis's own SpatialBenchError on bad input).

        An analysis that sends requests (a judge) implements :meth:`acompute` instead.
        """
        raise NotImplementedError(f"analysis {self.name!r} sends requests: await its arun() instead")

    async def acompute(
        self, run: RunFolder, params: BaseModel, progress: Progress | None = None
    ) -> AnalysisDocument:
        """Compute the analysis of ``run`` as a coroutine (default: :meth:`compute`, progress passed on)."""
        return self.compute(run, params, **_given(progress))

    def tables(self, doc: dict[str, Any]) -> list[Grid]:
        """Return the document's tables (none by default)."""
        return []

    def figures(self, doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
        """Draw the document's figures into ``folder`` (none by default)."""
        return []

    def heading(self, doc: dict[str, Any]) -> str:
        """Return the report's heading of ``doc`` (:attr:`title`, else the name, by default)."""
        return self.title or self.name

    def document(self, **fields: Any) -> AnalysisDocument:
        """Return the document of ``fields`` under this analysis's name and version."""
        return AnalysisDocument(analysis=self.name, version=self.version, **fields)

    def params(self, **values: Any) -> BaseModel:
        """Validate ``values`` as this analysis's parameters (pydantic ValidationError names each field)."""
        return self.Params(**values)

    def run(self, run: RunFolder, progress: Progress | None = None, **params: Any) -> AnalysisDocument:
        """Validate ``params``, compute the document and check it carries this analysis's name and version.

        ``progress`` (:mod:`spatialbench.records.progress`) is passed on only when given, as
        ``compute(run, params, progress=...)``: an analysis that loops over many items or requests accepts
        it; one that does not is never called with it.
        """
        self.check_benchmark(run)
        return self._checked(self.compute(run, self.params(**params), **_given(progress)))

    async def arun(self, run: RunFolder, progress: Progress | None = None, **params: Any) -> AnalysisDocument:
        """:meth:`run` as a coroutine, through :meth:`acompute` (``run_sync(a.arun(...))`` from sync code)."""
        self.check_benchmark(run)
        return self._checked(await self.acompute(run, self.params(**params), **_given(progress)))

    def check_benchmark(self, run: RunFolder) -> None:
        """Refuse a run of a benchmark the analysis does not apply to (its paper's data, phases, metadata).

        Raises:
            BenchmarkMismatchError: ``run.benchmark`` not in :attr:`benchmarks` (when any are named).
        """
        if not self.benchmarks or run.benchmark in self.benchmarks:
            return
        titles = " / ".join(get_benchmark(b).display_name for b in self.benchmarks)
        where = f" ({self.section})" if self.section else ""
        raise BenchmarkMismatchError(
            f"{self.name} applies to {titles} runs{where}; {run.path} is a {run.benchmark} run"
        )

    def _checked(self, doc: AnalysisDocument) -> AnalysisDocument:
        if (doc.analysis, doc.version) != (self.name, self.version):
            raise ValueError(f"analysis {self.name!r} returned a document of {doc.analysis!r} v{doc.version}")
        return doc


def _given(progress: Progress | None) -> dict[str, Progress]:
    """``progress`` as a keyword argument, none when None: an analysis without progress never gets one."""
    return {} if progress is None else {"progress": progress}


def _check_analysis(name: str, obj: object) -> None:
    if not isinstance(obj, Analysis):
        raise TypeError(f"is a {type(obj).__name__}, not an Analysis")
    if obj.name != name:
        raise ValueError(f"its name is {obj.name!r}, not {name!r}")


ANALYSES: Registry[Analysis] = Registry("analysis", check=_check_analysis,
                                        entry_points="spatialbench.analyses")


def document_path(run_dir: Path, name: str) -> Path:
    """``RUN/analysis/<name>.json``."""
    return run_dir / ANALYSIS_DIR / f"{name}.json"


def save_json(path: Path, data: dict[str, Any]) -> Path:
    """Write ``data`` as JSON (indented, UTF-8) to ``path`` atomically (folders created); return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    part.replace(path)
    return path


def save_document(path: Path, doc: AnalysisDocument) -> Path:
    """Write ``doc`` to ``path`` (:func:`save_json`); return the path."""
    return save_json(path, doc.model_dump(mode="json"))


def write_document(run_dir: Path, doc: AnalysisDocument, stem: str | None = None) -> Path:
    """Write ``doc`` to ``RUN/analysis/<stem>.json`` (default: ``doc.analysis``) atomically; return it."""
    return save_document(document_path(run_dir, stem or doc.analysis), doc)


__all__ = ["ANALYSES", "Analysis", "AnalysisDocument", "DrawnFigure", "NoParams", "document_path",
           "save_document", "save_json", "write_document"]

# built-in analyses
ANALYSES.lazy("compare", "spatialbench.analysis.compare:ANALYSIS")
ANALYSES.lazy("sweep", "spatialbench.analysis.sweep:ANALYSIS")
ANALYSES.lazy("profile", "spatialbench.analysis.profile:ANALYSIS")
ANALYSES.lazy("error-table", "spatialbench.analysis.error_table:ANALYSIS")
ANALYSES.lazy("cogmap-locality", "spatialbench.analysis.cogmap:ANALYSIS")
ANALYSES.lazy("mindcube-cogmap", "spatialbench.analysis.mindcube_cogmap:ANALYSIS")

# built-in analyses (phase)
ANALYSES.lazy("judge", "spatialbench.analysis.judge.study:ANALYSIS")
ANALYSES.lazy("consistency", "spatialbench.analysis.consistency:ANALYSIS")
ANALYSES.lazy("entropy", "spatialbench.analysis.entropy:ANALYSIS")
ANALYSES.lazy("probe", "spatialbench.analysis.probe:ANALYSIS")
