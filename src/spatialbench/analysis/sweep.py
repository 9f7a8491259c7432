"""A study over one run setting (``spatialbench sweep KEY=V1,V2,... RUN-OPTIONS``).

One run per value, each the ``spatialbench run`` of the given options with the swept option set to the
value and ``--out`` set to ``OUT/<key>-<value>`` (characters other than letters, digits, ``.``, ``_``,
``=`` and ``-`` become ``_``); re-running the sweep resumes every run. The runs share one frame cache
(:func:`spatialbench.runs.runner.shared_frame_caches`): each video is decoded once per distinct frame
strategy and size limit, however many values sample it alike. The runs are then compared against
the first value (:mod:`spatialbench.analysis.compare`): the accuracy-vs-frames curve of VSI-Bench App.
C.3 / Fig. 12 (``frames=uniform:8,uniform:16,uniform:32``), MMSI-Video-Bench Fig. 5
(``frames=uniform:50,consecutive:50@0``), input order and repetition (App. D, Table 7), strategies
(Fig. 9: ``strategy=direct,zero-shot-cot``).

``OUT/sweep.json`` (``analysis`` ``sweep``, ``schema`` ``spatialbench.sweep``, ``version`` 1):
``setting``, ``values``, ``runs`` (``value``, ``path``, ``exit_code``) and ``comparison`` (the
``compare.json`` document, null when no run could be scored). The report draws it for the runs inside
``OUT``: Avg. against the swept value, a curve over the frame count when every value is a frame strategy
with a count (``uniform:16``), else bars.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from spatialbench import charts
from spatialbench.analysis import compare
from spatialbench.analysis.registry import Analysis, AnalysisDocument, DrawnFigure
from spatialbench.errors import SpatialBenchError
from spatialbench.runs.folder import ITEMS_NAME, RunFolder, open_run
from spatialbench.scoring.render import Grid, Value

NAME = "sweep"
SCHEMA = "spatialbench.sweep"
VERSION = 1
FILE = "sweep.json"
#: sweepable settings -> the ``spatialbench run`` option that sets them
OPTIONS = {
    "frames": "--frames",
    "order": "--order",
    "video_repeats": "--video-repeats",
    "strategy": "--strategy",
    "blind": "--blind",
    "max_pixels": "--max-pixels",
    "setting": "--setting",
    "model": "--model",
    "model_family": "--model-family",
}
_UNSAFE = re.compile(r"[^A-Za-z0-9._=-]")


class SweepError(SpatialBenchError, ValueError):
    """A sweep specification or option list that cannot be run (the message names it)."""


def parse_sweep(text: str) -> tuple[str, tuple[str, ...]]:
    """Split ``"frames=uniform:8,uniform:16"`` into the setting and its values.

    Raises:
        SweepError: no ``=``, an unknown setting (the message lists the known ones), no value or a value
            given twice.
    """
    key, sep, values = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or key not in OPTIONS:
        raise SweepError(
            f"sweep {text!r}: expected SETTING=V1,V2,... with SETTING one of {', '.join(OPTIONS)}"
        )
    listed = _joined_pools(key, [v.strip() for v in values.split(",")])
    if not listed:
        raise SweepError(f"sweep {text!r}: no value")
    if len(set(listed)) < len(listed):
        raise SweepError(f"sweep {text!r}: a value is given twice")
    if key == "blind" and not set(listed) <= {"true", "false"}:
        raise SweepError(f"sweep {text!r}: blind takes true,false")
    return key, listed


def _joined_pools(key: str, parts: list[str]) -> tuple[str, ...]:
    """Return the values, with the endpoint pools of ``model`` values whole again.

    A model's endpoint pool separates its URLs by commas too
    (``openai-compatible:http://a/v1,http://b/v1#m``): a part that is a URL continues the value before it.
    """
    values: list[str] = []
    for part in parts:
        if key == "model" and values and part.startswith(("http://", "https://")):
            values[-1] = f"{values[-1]},{part}"
        elif part:
            values.append(part)
    return tuple(values)


def folder_name(key: str, value: str) -> str:
    """Return the run folder name of one value: ``frames-uniform_8``."""
    return _UNSAFE.sub("_", f"{key}-{value}")


def _without(args: Sequence[str], option: str) -> list[str]:
    """Drop ``option`` from ``args``: with its value (``--out X``, ``--out=X``); ``--blind``: both flags."""
    if option == "--blind":
        return [a for a in args if a not in ("--blind", "--no-blind")]
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == option:
            skip = True
        elif not arg.startswith(option + "="):
            kept.append(arg)
    return kept


def run_arguments(args: Sequence[str], key: str, value: str, out: str) -> list[str]:
    """Return the ``spatialbench run`` arguments of one value: ``args``, swept option and ``--out`` replaced.

    The blind value (``blind=true``) leaves ``--frames`` out: a blind run sends no frames.

    Raises:
        SweepError: unknown ``key``.
    """
    if key not in OPTIONS:
        raise SweepError(f"unknown sweep setting {key!r}")
    option = OPTIONS[key]
    rest = _without(_without(args, "--out"), option)
    if key == "blind" and value == "true":  # a blind run sends no frames: it refuses --frames
        rest = _without(rest, "--frames")
    swept = ([option] if value == "true" else ["--no-blind"]) if key == "blind" else [option, value]
    return ["run", *rest, *swept, "--out", out]


def out_of(args: Sequence[str]) -> str | None:
    """Return the ``--out`` value among ``args`` (``--out X`` or ``--out=X``), None when absent."""
    for index, arg in enumerate(args):
        if arg == "--out" and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith("--out="):
            return arg.split("=", 1)[1]
    return None


class SweptRun(BaseModel):
    """One value's run: the value, its folder and the ``spatialbench run`` exit status."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: str
    path: str
    exit_code: int


class SweepParams(BaseModel):
    """Parameters of ``sweep``: the swept ``setting``, its ``values``, the ``runs`` made (value order)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    setting: str
    values: tuple[str, ...]
    runs: tuple[SweptRun, ...]


def sweep_document(params: SweepParams, comparison: dict[str, Any] | None) -> AnalysisDocument:
    """Return the ``sweep.json`` document of ``params`` and the runs' comparison (None: none was scored)."""
    runs = [r.model_dump() for r in params.runs]
    return AnalysisDocument.model_validate({
        "analysis": NAME, "version": VERSION, "schema": SCHEMA, "setting": params.setting,
        "values": list(params.values), "runs": runs, "comparison": comparison})


_COUNT = re.compile(r"^[a-z]+:(\d+)")


class SweepAnalysis(Analysis):
    """``sweep``: the swept runs compared against the first scored one (module docstring)."""

    name: ClassVar[str] = NAME
    description: ClassVar[str] = "one run per value of a setting, compared against the first value"
    title: ClassVar[str] = "Sweep"
    version: ClassVar[int] = VERSION
    Params: ClassVar[type[BaseModel]] = SweepParams

    def compute(self, run: RunFolder, params: BaseModel) -> AnalysisDocument:
        """Compare ``run`` (the first scored value's) with the other scored runs of ``params.runs``.

        Raises:
            RunFolderError / CompareError: see :mod:`spatialbench.analysis.compare`.
        """
        assert isinstance(params, SweepParams)
        others = [Path(r.path) for r in params.runs if (Path(r.path) / ITEMS_NAME).is_file()
                  and Path(r.path).resolve() != run.path.resolve()]
        comparison = compare.ANALYSIS.run(run, others=tuple(others), against=run.name)
        return sweep_document(params, comparison.model_dump(mode="json"))

    def heading(self, doc: dict[str, Any]) -> str:
        """``Sweep: <setting>``."""
        return f"Sweep: {doc['setting']}"

    def _averages(self, doc: dict[str, Any]) -> list[Value]:
        compared = (doc.get("comparison") or {}).get("runs", [])
        scores = {r["name"]: r["scores"].get("overall") for r in compared}
        return [scores.get(Path(r["path"]).name) for r in doc["runs"]]

    def tables(self, doc: dict[str, Any]) -> list[Grid]:
        """Avg. per value; none when no run was scored."""
        averages = self._averages(doc)
        if all(a is None for a in averages):
            return []
        return [Grid(tuple(str(v) for v in doc["values"]), (("Avg.", tuple(averages)),),
                     f"Sweep over {doc['setting']}")]

    def figures(self, doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
        """Avg. against the value: a curve over frame counts (Fig. 12), else bars; none without scores."""
        averages = self._averages(doc)
        if all(a is None for a in averages):
            return []
        values = [str(v) for v in doc["values"]]
        counts = [_COUNT.match(v) for v in values]
        if doc["setting"] == "frames" and all(counts):
            x = [float(m.group(1)) for m in counts if m]
            paths = charts.curves([("Avg.", x, averages, "o-")], "accuracy vs frames", folder / "sweep",
                                  "frames sent", "Avg. (%)")
        else:
            paths = charts.grouped_bars(values, [("Avg.", averages)], [], f"sweep over {doc['setting']}",
                                        folder / "sweep")
        return [DrawnFigure("Avg. per value (Fig. 12)", tuple(paths))]


ANALYSIS = SweepAnalysis()


def study(params: SweepParams) -> AnalysisDocument:
    """Return the sweep's document: :class:`SweepAnalysis` of its first scored run, else no comparison.

    A scored run is one with ``items.csv``; with none, ``comparison`` is null.

    Raises:
        RunFolderError / CompareError: see :meth:`SweepAnalysis.compute`.
    """
    scored = [r.path for r in params.runs if (Path(r.path) / ITEMS_NAME).is_file()]
    if not scored:
        return sweep_document(params, None)
    return ANALYSIS.run(open_run(scored[0], scored=True), **params.model_dump())
