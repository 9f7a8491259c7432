"""Another tool's results as a run folder (``spatialbench import FILE -b B -a ANNOTATIONS --out RUN``).

:func:`import_run` reads a foreign results file with the readers ``score --predictions`` uses
(:func:`~spatialbench.scoring.predictions.read_predictions`: an lmms-eval ``--log_samples`` log, a
VLMEvalKit result table, a plain ``id,response`` CSV, a JSONL or an export), stores each response as the
answer of its item (:func:`~spatialbench.runs.baseline.store_answers`) and scores the run, so ``compare``,
``report`` and ``serve`` read it like any run (:class:`~spatialbench.runs.folder.RunFolder`).

The run's ``config.json`` names where the answers came from: ``model.name`` is ``TOOL:MODEL``, the
``backend`` section holds ``{"imported": true, "tool", "version", "format", "file", "frames", "response"}``
(frames only where the file names them, else None; ``response``: which text of the file the answers are,
:mod:`spatialbench.runs.imported`) and
``scoring.extract`` the extraction mode the run is scored with (the benchmark's default unless given).
Only items with a response are selected (``data.ids``), so a log of part of a benchmark is scored on
that part.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spatialbench.benchmarks import get_benchmark
from spatialbench.errors import SpatialBenchError
from spatialbench.records.item import Item
from spatialbench.records.rows import RowError
from spatialbench.runs.baseline import store_answers
from spatialbench.runs.config import RunConfig
from spatialbench.runs.folder import RunFolder, open_run
from spatialbench.runs.record import load_run_items
from spatialbench.scoring.output import write_scores

if TYPE_CHECKING:  # read_predictions is imported inside import_run, as the CLI's heavy modules are
    from spatialbench.scoring.predictions import Predictions

#: the tool a predictions format comes from (a table is VLMEvalKit's when it has its ``index`` column)
TOOL_OF_FORMAT = {"lmms-eval": "lmms-eval", "jsonl": "jsonl", "export": "export"}
_VERSION = re.compile(r"(?<![\d.])(\d+\.\d+(?:\.\d+)?)(?![\d.])")
_FRAMES = re.compile(r"[A-Za-z-]+_(\d+)frame")


class ImportInputError(SpatialBenchError, ValueError):
    """A results file that cannot be imported: missing, unreadable, no response matching an item (exit 2)."""


@dataclass(frozen=True)
class ImportOutcome:
    """What :func:`import_run` wrote: the run folder read back, the tool, its version, rows not used."""

    run: RunFolder
    tool: str
    version: str
    answered: int
    skipped: list[str]


def _tool(path: Path, format: str) -> str:
    """Return the tool that wrote ``path``: lmms-eval, VLMEvalKit (a table with ``index``), csv, jsonl..."""
    if format != "table":
        return TOOL_OF_FORMAT.get(format, format)
    if path.suffix.lower() == ".xlsx":
        return "vlmevalkit"
    with path.open(encoding="utf-8", errors="replace") as file:
        header = file.readline().lower()
    return "vlmevalkit" if re.search(r"(^|[,\t])index([,\t]|$)", header.strip()) else "csv"


def tool_version(path: Path) -> str:
    """Return the version in a file's name (``lmms_eval_0.7.3_samples_vsibench.jsonl``: ``0.7.3``) or unknown.

    lmms-eval writes no version of its own into its logs (0.7.3 records ``unknown@unknown``;
    ../shared/data/lmms_eval/README.md), so the name, or ``version=``, is the only source.
    """
    match = _VERSION.search(path.name)
    return match.group(1) if match else "unknown"


def import_run(
    file: str | Path, benchmark: str, annotations: str | Path, out: str | Path, *, model: str | None = None,
    tool: str | None = None, version: str | None = None, extract: str | None = None,
    format: str | None = None, response_field: str | None = None,
    notify: Callable[[str], None] | None = None,
) -> ImportOutcome:
    """Write the run folder ``out`` holding ``file``'s responses to ``benchmark``'s items, scored.

    Args:
        file: the foreign results file (or an lmms-eval output folder).
        benchmark: a registered benchmark name.
        annotations: the benchmark's data (annotation file or folder) the responses answer.
        out: the new run folder (must not exist, or be empty).
        model: the model's name (default: the file's stem).
        tool: recorded as given (default: detected from the format).
        version: recorded as given (default: from the file name, else ``unknown``).
        extract: the extraction mode (default: the benchmark's).
        format: as ``score --predictions --format`` takes it (default: detected).
        response_field: as ``score --response-field`` takes it.
        notify: called with each note (rows skipped).

    Raises:
        ImportInputError: a missing or unreadable file, a refused response field, an ``out`` that holds
            files, no response matching an item; nothing is left behind. UnknownNameError: ``benchmark``.
    """
    from spatialbench.scoring.predictions import read_predictions

    spec = get_benchmark(benchmark)
    path, target = Path(file), Path(out)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ImportInputError(f"--out {target}: exists and is not an empty folder")
    config = _config(spec.name, annotations, target, model or path.stem, extract)
    loaded = load_run_items(config, spec)
    try:
        read = read_predictions(path, loaded, format, response_field)
    except (FileNotFoundError, ValueError) as err:
        raise ImportInputError(str(err)) from None
    path = _source(read, path, notify)
    skipped = _noted(_not_imported(read, {i.id for i in loaded}, annotations), notify)
    items = [i for i in loaded if i.id in read.responses]
    if not items:
        raise ImportInputError(f"{path}: no response matches an item of {annotations}")
    found_tool = tool or _tool(path, read.format)
    found_version = version or tool_version(path)
    config = config.updated("data", ids=tuple(i.id for i in items)).updated(
        "model", name=f"{found_tool}:{model or path.stem}")
    backend = {"imported": True, "tool": found_tool, "version": found_version, "format": read.format,
               "file": str(path.absolute()), **_recorded(path, found_tool, response_field)}
    _write(config, backend, items, read.responses, target)
    return ImportOutcome(open_run(target, scored=True), found_tool, found_version, len(items), skipped)


def _not_imported(read: Predictions, ids: set[str], annotations: str | Path) -> list[str]:
    """Every row not imported, in file order: the reader's refusals and the ids the annotations lack."""
    errors = list(read.errors) + [
        RowError(*read.where.get(i, (str(read.source), None)), "id", f"no item {i!r} in {annotations} "
                 "(not imported)") for i in read.responses if i not in ids]
    return [str(e) for e in sorted(errors, key=lambda e: (e.file, e.line if isinstance(e.line, int) else 0))]


def _recorded(path: Path, tool: str, response_field: str | None) -> dict[str, Any]:
    """Return the ``frames`` and ``response`` entries of an imported run's ``backend`` section."""
    return {"frames": recorded_frames(path, tool), "response": _response_text(tool, response_field)}


def recorded_frames(path: Path, tool: str) -> str | None:
    """Return the frames a results file records (VLMEvalKit names its dataset ``VSI-Bench_32frame``) or None.

    Nothing else is taken for granted: lmms-eval's logs and a CSV do not say how frames were sampled.
    """
    match = _FRAMES.search(path.name) if tool == "vlmevalkit" else None
    return f"{match.group(1)} (VLMEvalKit dataset {match.group(0).strip('_')})" if match else None


def _response_text(tool: str, response_field: str | None) -> str:
    """Which text of the source the stored answers are (what the run's extraction reads)."""
    if tool == "lmms-eval":
        return "lmms-eval's filtered_resps (the output of its filters)"
    if response_field:
        return f"the file's {response_field!r} field"
    if tool == "vlmevalkit":
        return "VLMEvalKit's prediction column (the raw reply)"
    return "the file's responses"


def _source(read: Predictions, given: Path, notify: Callable[[str], None] | None) -> Path:
    """Return the file read: the one chosen from an lmms-eval output folder is noted (its note first)."""
    if read.source is None or read.source == given:
        return given
    _noted(read.warnings[:1], notify)
    return read.source


def _noted(lines: list[str], notify: Callable[[str], None] | None) -> list[str]:
    for line in lines if notify is not None else ():
        notify(line)  # type: ignore[misc]
    return lines


def _config(benchmark: str, annotations: str | Path, out: Path, model: str, extract: str | None) -> RunConfig:
    spec = get_benchmark(benchmark)
    return RunConfig.model_validate({
        "out": str(out.absolute()),
        "data": {"benchmark": benchmark, "path": str(Path(annotations).absolute())},
        "model": {"name": model}, "scoring": {"extract": extract or spec.scoring.default_mode},
    })


def _write(config: RunConfig, backend: dict[str, Any], items: list[Item], answers: dict[str, str],
           target: Path) -> None:
    """Store and score the run; a failure removes the folder (it was made here)."""
    made = not target.exists()
    try:
        store_answers(config, backend, {"imported": backend["tool"]}, items, answers)
        folder = open_run(target)
        write_scores(folder.score(items), target)
    except BaseException:
        if made:
            shutil.rmtree(target, ignore_errors=True)
        raise
