"""The benchmark diagnostic profile (Cambrian-S): one benchmark × one model, vision taken away step by step.

Rows, in order: chance (random, frequency), blind (no frames), 1 frame, N frames, the coverage oracle
(``coverage:N``, synthetic scenes only), and TsT-RF (a text-only random forest trained on the test set
itself, :mod:`spatialbench.analysis.shortcuts`, random folds). Columns: every question type and Avg. (the
benchmark's average; for TsT-RF the mean over question types, as ``stress-test`` reports it). A benchmark
that measures vision shows a large gap between the blind / TsT-RF rows and the N-frame row; a coverage
row above the N-frame row says the frames sent, not the model, limit the score (issue 23 item 7).

``OUT/profile.json`` (``analysis`` ``profile``, ``version`` 1): ``benchmark``, ``model``, ``data``,
``frames`` (N), ``columns`` (the benchmark table's columns, other question types, then ``overall``),
``labels`` (column → its name in the table), ``rows``: ``[{setting, label, path,
cells: {column: {score, ci95, n, scenes}}}]`` (percent; ``ci95`` the scene-clustered bootstrap of the
run's table, for TsT-RF the normal interval ``stress-test`` gives per type and ``chance`` its chance
column, the item mean; ``ci95`` null when the column's questions come from fewer than 2 scenes,
``scenes`` their count; a column a setting cannot answer, e.g. numerical questions for chance (random),
has ``score`` null). The score table adds TsT-RF's chance as a row, ``TsT-RF chance (item mean)``. The
runs are ``OUT/<setting>``; the report draws the document for the runs inside ``OUT``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from spatialbench import charts
from spatialbench.analysis.registry import Analysis, AnalysisDocument, DrawnFigure
from spatialbench.runs.folder import RunFolder, open_run
from spatialbench.scoring.render import Grid, Value
from spatialbench.scoring.uncertainty import interval_text, table_ci, table_clusters

NAME = "profile"
VERSION = 1
FILE = "profile.json"
TST = "tst-rf"
OVERALL = "overall"
TST_CHANCE = "TsT-RF chance (item mean)"
SCORE_NOTE = ("Rel. Dir. is the mean of its three levels, chance too, as VSI-Bench's table; TsT-RF tests "
              "it as one type over its items, its chance the item mean, as stress-test prints it")


@dataclass(frozen=True)
class Setting:
    """One row of the profile: its folder name, its label and the run configuration it lays over the base."""

    name: str
    label: str
    overrides: Mapping[str, Any]


def settings(frames: int, coverage: bool) -> list[Setting]:
    """Return the run settings of the profile (module docstring), ``coverage:N`` only when ``coverage``."""
    rows = [
        Setting("chance-random", "Chance (random)", {"model": {"name": "chance-random"}}),
        Setting("chance-frequency", "Chance (frequency)", {"model": {"name": "chance-frequency"}}),
        Setting("blind", "Blind (no frames)", {"prompt": {"blind": True}}),
        Setting("frames-1", "1 frame", {"media": {"frames": "uniform:1"}}),
        Setting(f"frames-{frames}", f"{frames} frames", {"media": {"frames": f"uniform:{frames}"}}),
    ]
    if coverage:
        media = {"frames": f"coverage:{frames}"}
        rows.append(Setting(f"coverage-{frames}", f"Coverage oracle ({frames} frames)", {"media": media}))
    return rows


def _cell(score: float | None, ci: Any, n: int, scenes: int | None = None) -> dict[str, Any]:
    return {"score": score, "ci95": None if ci is None else [float(ci[0]), float(ci[1])], "n": int(n),
            "scenes": scenes}


def run_cells(run: RunFolder) -> dict[str, dict[str, Any]]:
    """Return the run's cells: score as it scored itself, 95 % interval, n and label per column + overall.

    ``label``: the column's name in the benchmark's table (``Rel. Dir.``). The columns are the table's
    (VSI-Bench's Rel. Dir. is one column, the mean of its three types, as TsT-RF's one question type),
    then any task no column names.
    """
    table = run.score().table
    intervals = table_ci(table)
    scenes = {key: count for key, (_, count) in table_clusters(table).items()}
    cells = {c.key: {**_cell(c.accuracy, intervals.get(c.key), c.n, scenes.get(c.key)), "label": c.group}
             for c in table.cells}
    for task in table.other_tasks:
        cells[task] = _cell(table.task_scores.get(task), intervals.get(task), table.counts.get(task, 0),
                            scenes.get(task))
    cells[OVERALL] = {
        **_cell(table.average, intervals.get(OVERALL), sum(c.n for c in table.cells), scenes.get(OVERALL)),
        "label": "Avg.",
    }
    return cells


def tst_cells(part: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Return the cells of a stress-test fold part (``tasks``, ``overall``, as in ``stress_test.json``)."""
    cells = {t: {**_cell(v["score"], v.get("interval"), v["n"], v.get("scenes")), "chance": v.get("chance")}
             for t, v in part["tasks"].items()}
    overall = part["overall"]
    cells[OVERALL] = {**_cell(overall["score"], None, overall["n"]), "chance": overall.get("chance")}
    return cells


class ProfiledRun(BaseModel):
    """One setting's run: its name, label and folder."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    setting: str
    label: str
    path: str


class ProfileParams(BaseModel):
    """Parameters of ``profile``: the runs made (row order), N, the model and TsT-RF's fold part."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    runs: tuple[ProfiledRun, ...]
    frames: int
    model: str
    tst: dict[str, Any] | None = None


class ProfileAnalysis(Analysis):
    """``profile``: the benchmark diagnostic profile of one model (module docstring)."""

    name: ClassVar[str] = NAME
    description: ClassVar[str] = "chance, blind, 1 frame, N frames, coverage oracle and TsT-RF side by side"
    title: ClassVar[str] = "Benchmark diagnostic profile"
    version: ClassVar[int] = VERSION
    Params: ClassVar[type[BaseModel]] = ProfileParams

    def compute(self, run: RunFolder, params: BaseModel) -> AnalysisDocument:
        """Tabulate every run of ``params.runs`` and the TsT-RF part (``run``: the benchmark's first run).

        Raises:
            RunFolderError: a run folder cannot be read or scored.
        """
        assert isinstance(params, ProfileParams)
        rows = [{**r.model_dump(), "cells": run_cells(open_run(r.path, scored=True))} for r in params.runs]
        if params.tst is not None:
            cells = tst_cells(params.tst)
            rows.append({"setting": TST, "label": "TsT-RF (text only)", "path": "", "cells": cells})
        columns = list(dict.fromkeys(c for row in rows for c in row["cells"] if c != OVERALL))
        labels = {c: row["cells"][c].get("label", c) for row in reversed(rows) for c in row["cells"]}
        return self.document(
            benchmark=run.benchmark,
            model=params.model,
            data=str(run.data_path),
            frames=params.frames,
            columns=[*columns, OVERALL],
            labels=labels,
            rows=rows,
        )

    def heading(self, doc: dict[str, Any]) -> str:
        """``Benchmark diagnostic profile: <benchmark> × <model>``."""
        return f"{self.title}: {doc['benchmark']} × {doc['model']}"

    def tables(self, doc: dict[str, Any]) -> list[Grid]:
        """Return the scores (percent) per setting and column, then the same cells' ``[low, high] n=N``."""
        header = tuple(doc["labels"].get(c, c) for c in doc["columns"])
        cells = [
            (row["label"], [row["cells"].get(c) or _cell(None, None, 0) for c in doc["columns"]])
            for row in doc["rows"]
        ]
        scores = tuple((label, tuple(c["score"] for c in row)) for label, row in cells)
        spans = tuple((label, tuple(_interval_text(c) for c in row)) for label, row in cells)
        tst = [row for row in doc["rows"] if row["setting"] == TST]
        if tst:  # its chance as stress-test prints it, beside the chance rows (item 2 of the newcomer check)
            chances = tuple(tst[0]["cells"].get(c, {}).get("chance") for c in doc["columns"])
            scores += ((TST_CHANCE, chances),)
        title = f"Diagnostic profile: {doc['benchmark']} × {doc['model']} (%; {SCORE_NOTE})"
        return [
            Grid(header, scores, title),
            Grid(header, spans, "95 % intervals and n"),
        ]

    def figures(self, doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
        """Avg. per setting as bars with their 95 % intervals."""
        rows = doc["rows"]
        averages: list[Value] = [row["cells"][OVERALL]["score"] for row in rows]
        spans = [_span(row["cells"][OVERALL]["ci95"]) for row in rows]
        labels = [row["label"] for row in rows]
        paths = charts.grouped_bars(
            labels,
            [("Avg.", averages)],
            [],
            f"{doc['benchmark']} × {doc['model']}",
            folder / "profile",
            ylabel="Avg. (%)",
            intervals=[spans],
        )
        return [DrawnFigure("Avg. per setting, 95 % intervals (benchmark diagnostic profile)", tuple(paths))]


def _span(ci: Sequence[float] | None) -> tuple[float, float] | None:
    return None if ci is None else (float(ci[0]), float(ci[1]))


def _interval_text(cell: Mapping[str, Any]) -> str:
    if not cell["n"] or cell["score"] is None:
        return "-"
    return interval_text(cell["ci95"], cell["n"], cell.get("scenes"))


ANALYSIS = ProfileAnalysis()
