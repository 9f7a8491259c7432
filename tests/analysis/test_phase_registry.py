"""The phase analyses are registered parts: looked up by name, typed parameters, the document they write."""

import asyncio
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from spatialbench.analysis.registry import ANALYSES, AnalysisDocument, document_path, write_document
from spatialbench.runs.folder import open_run
from support.traced_runs import char_trace, write_traced_run

PHASE = ("judge", "consistency", "entropy", "probe")


def test_the_phase_analyses_are_registered_by_name() -> None:
    assert set(PHASE) <= set(ANALYSES.names())
    for name in PHASE:
        part = ANALYSES.get(name)
        # probe 2: Fig. 8's cross-entropy against the answer logits (issue 21)
        assert part.name == name and part.version == (2 if name == "probe" else 1)
        assert part.description and part.title


def test_parameters_are_typed_and_frozen() -> None:
    judge = ANALYSES.get("judge")
    with pytest.raises(ValidationError):
        judge.params(judges=())  # at least one judge
    with pytest.raises(ValidationError):
        judge.params(judges=("j",), temperature=1)  # unknown parameter
    params = ANALYSES.get("entropy").params(bins=3)
    with pytest.raises(ValidationError):
        params.bins = 4  # type: ignore[misc]


def test_a_sync_analysis_gives_the_same_document_through_arun(tmp_path: Path) -> None:
    rows = {"a": (char_trace("(1)xy(2)z", entropies=[0, 0, 0, 1.0, 2.0, 0, 0, 0, 4.0]), "A", 1.0)}
    run_dir = write_traced_run(tmp_path / "run", tmp_path / "traces", rows)
    entropy = ANALYSES.get("entropy")
    doc = entropy.run(open_run(run_dir, scored=True), bins=2)
    assert asyncio.run(entropy.arun(open_run(run_dir, scored=True), bins=2)) == doc
    assert doc.analysis == "entropy" and doc.model_dump()["phases"]["correct"]["1"]["mean"] == 1.5


def test_a_document_variant_has_its_own_file(tmp_path: Path) -> None:
    doc = AnalysisDocument(analysis="probe", version=1, probe="linear")
    path = write_document(tmp_path, doc, "probe-linear")
    assert path == document_path(tmp_path, "probe-linear") == tmp_path / "analysis" / "probe-linear.json"
    assert json.loads(path.read_text()) == {"analysis": "probe", "version": 1, "probe": "linear"}


def test_no_traces_recorded_or_given_is_one_located_error(tmp_path: Path) -> None:
    from spatialbench.analysis.entropy import TraceError

    rows = {"a": (char_trace("(1)xy", entropies=[0, 0, 0, 1.0, 2.0]), "A", 1.0)}
    run_dir = write_traced_run(tmp_path / "run", tmp_path / "traces", rows)
    record = json.loads((run_dir / "config.json").read_text())
    (run_dir / "config.json").write_text(json.dumps({"config": record["config"]}))
    for name in ("entropy", "probe"):
        with pytest.raises(TraceError, match="the run recorded no trace folder; give --traces DIR"):
            ANALYSES.get(name).run(open_run(run_dir, scored=True))
