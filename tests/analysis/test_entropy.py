"""Token entropy from stored traces: a tiny random Qwen2.5-VL on ReMindView items, and hand-made traces."""

import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from benchmarks.mmsi_remindview_fixtures import build_remindview
from spatialbench.analysis.entropy import ANALYSIS, phase_entropies
from spatialbench.analysis.stored import stored_answers
from spatialbench.api import run
from spatialbench.cli.main import app
from spatialbench.models.hf_trace import entropy, read_trace
from spatialbench.runs import RunConfig
from spatialbench.runs.folder import open_run

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
from support.tiny_vlm import build_qwen2_5_vl  # noqa: E402
from support.traced_runs import char_trace, write_traced_run  # noqa: E402


def _hand_entropy(logits: list[float]) -> float:
    exps = [math.exp(v - max(logits)) for v in logits]
    total = sum(exps)
    return -sum(e / total * math.log(e / total) for e in exps)


def test_entropy_matches_hand_computation() -> None:
    logits = np.array([[0.0, 0.0], [2.0, 0.0]], dtype=np.float32)
    assert entropy(logits)[0] == pytest.approx(math.log(2))  # two equal logits: ln 2 nats
    assert entropy(logits)[1] == pytest.approx(_hand_entropy([2.0, 0.0]), rel=1e-12)


@pytest.fixture(scope="module")
def traced_run(tmp_path_factory) -> Path:
    from spatialbench.models.hf import HFBackend

    root = tmp_path_factory.mktemp("entropy")
    model = build_qwen2_5_vl(root / "tiny-qwen")
    data = build_remindview(root / "data")
    backend = HFBackend(
        str(model), device="cpu", local_files_only=True, trace_dir=str(root / "traces"), trace_top_k=10_000
    )
    config = RunConfig.model_validate(
        {
            "data": {"benchmark": "remindview", "path": str(data), "limit": 2},
            "model": {"name": f"hf:{model}", "max_new_tokens": 12},
            "out": str(root / "run"),
        }
    )
    summary = run(config, backend=backend, progress=False)
    assert summary.counts["ok"] == 2, summary.unanswered
    return root / "run"


def test_tiny_model_trace_on_remindview_items(traced_run: Path) -> None:
    answers = stored_answers(open_run(traced_run))
    record = json.loads((traced_run / "config.json").read_text())
    folder = Path(record["backend"]["trace_dir"])
    assert len(answers) == 2
    for answer in answers.values():
        trace = read_trace(folder / answer.raw["trace"])
        steps = len(trace["token_ids"])
        assert 1 <= steps <= 12
        assert "".join(trace["pieces"]) == answer.text  # char-level tokenizer: pieces join to the answer
        vocab = trace["topk_logits"].shape[1]  # top_k above the vocabulary: every logit is stored
        assert vocab == trace["anchor_logits"].shape[1]
        # step 0 by hand from the stored float16 logits (all of them, since k = V)
        stored = [float(v) for v in trace["topk_logits"][0]]
        assert float(trace["entropy"][0]) == pytest.approx(_hand_entropy(stored), abs=2e-3)
        # probabilities from the stored logsumexp sum to 1 over the vocabulary
        assert float(
            np.exp(trace["topk_logits"][0].astype(np.float64) - trace["logsumexp"][0]).sum()
        ) == pytest.approx(1.0, abs=5e-3)
        # greedy: the chosen token is the largest stored logit
        np.testing.assert_array_equal(trace["topk_ids"][:, 0], trace["token_ids"])
        last = trace["anchors"][-1]
        assert float(trace["entropy"][last]) == pytest.approx(
            _hand_entropy([float(v) for v in trace["anchor_logits"][-1]]), abs=2e-3
        )


def test_entropy_study_on_the_traced_run(traced_run: Path) -> None:
    doc = ANALYSIS.run(open_run(traced_run, scored=True)).model_dump()
    assert doc["analysis"] == "entropy" and doc["version"] == 1
    assert doc["items"]["traced"] == 2 and doc["items"]["no_trace"] == 0


def test_phase_entropies_skip_punctuation_and_whitespace() -> None:
    text = "(1)ab (2)c."
    #       (  1  )  a    b    ' '  (  2  )  c    .
    values = [9, 9, 9, 1.0, 3.0, 9, 9, 9, 9, 0.5, 9]
    per_phase = phase_entropies(char_trace(text, entropies=values))
    assert per_phase[1].tolist() == [1.0, 3.0]  # "(", "1", ")" and " " skipped or outside the phase
    assert per_phase[2].tolist() == [0.5]


def test_groups_means_and_variances_by_hand(tmp_path: Path) -> None:
    texts = {
        "a": ("(1)xy(2)z", [0, 0, 0, 1.0, 2.0, 0, 0, 0, 4.0]),
        "b": ("(1)w(2)uv", [0, 0, 0, 3.0, 0, 0, 0, 5.0, 7.0]),
    }
    rows = {
        item: (char_trace(text, entropies=values), "A", score)
        for (item, (text, values)), score in zip(texts.items(), (1.0, 0.0), strict=True)
    }
    run_dir = write_traced_run(tmp_path / "run", tmp_path / "traces", rows)
    doc = ANALYSIS.run(open_run(run_dir, scored=True), bins=2).model_dump()
    correct, incorrect, pooled = (doc["phases"][g] for g in ("correct", "incorrect", "all"))
    assert correct["1"]["mean"] == pytest.approx(1.5) and correct["1"]["variance"] == pytest.approx(0.25)
    assert correct["1"]["curve"] == [1.0, 2.0]
    assert incorrect["2"]["mean"] == pytest.approx(6.0) and incorrect["2"]["variance"] == pytest.approx(1.0)
    # phase 1 over both items: 1, 2, 3 -> mean 2, variance 2/3
    assert pooled["1"]["mean"] == pytest.approx(2.0) and pooled["1"]["variance"] == pytest.approx(2 / 3)
    assert pooled["1"]["items"] == 2 and pooled["3"]["tokens"] == 0
    result = CliRunner().invoke(app, ["entropy", str(run_dir), "--bins", "2"])
    assert result.exit_code == 0, result.output
    assert "| (1) | 1.500 ± 0.250 (2) | 3.000 ± 0.000 (1) | 2.000 ± 0.667 (3) |" in result.output
    assert json.loads((run_dir / "analysis" / "entropy.json").read_text())["phases"] == doc["phases"]


def test_an_unusable_trace_folder_is_an_error_and_keeps_entropy_json(tmp_path: Path) -> None:
    rows = {"a": (char_trace("(1)xy(2)z", entropies=[0, 0, 0, 1.0, 2.0, 0, 0, 0, 4.0]), "A", 1.0)}
    run_dir = write_traced_run(tmp_path / "run", tmp_path / "traces", rows)
    assert CliRunner().invoke(app, ["entropy", str(run_dir)]).exit_code == 0
    good = (run_dir / "analysis" / "entropy.json").read_text()
    empty = tmp_path / "empty"
    empty.mkdir()
    for folder in (tmp_path / "nonexist", empty):
        result = CliRunner().invoke(app, ["entropy", str(run_dir), "--traces", str(folder)])
        assert result.exit_code == 2, result.output
        assert f"error: {folder}" in result.output
        assert (run_dir / "analysis" / "entropy.json").read_text() == good


def test_a_non_numeric_score_names_items_csv_and_the_row(tmp_path: Path) -> None:
    text, values = "(1)xy(2)z", [0, 0, 0, 1.0, 2.0, 0, 0, 0, 4.0]
    rows = {
        "a": (char_trace(text, entropies=values), "A", 1.0),
        "b": (char_trace(text, entropies=values), "A", "x"),
    }
    run_dir = write_traced_run(tmp_path / "run", tmp_path / "traces", rows)
    result = CliRunner().invoke(app, ["entropy", str(run_dir)])
    assert result.exit_code == 2
    assert (
        result.output.strip() == f"error: {run_dir / 'items.csv'}: column score, item b: 'x' is not a number "
        "(1 such cell(s)); re-score the run (spatialbench score --run)"
    )


def test_a_trace_lacking_an_array_is_counted_and_skipped(tmp_path: Path) -> None:
    """Issue 26: one trace without ``entropy`` was a KeyError traceback for the whole run."""
    values = [0, 0, 0, 1.0, 2.0, 0, 0, 0, 4.0]
    broken = char_trace("(1)wv(2)u", entropies=values)
    del broken["entropy"]
    rows = {"a": (char_trace("(1)xy(2)z", entropies=values), "A", 1.0), "b": (broken, "A", 0.0)}
    run_dir = write_traced_run(tmp_path / "run", tmp_path / "traces", rows)
    result = CliRunner().invoke(app, ["entropy", str(run_dir), "--bins", "2"])
    assert result.exit_code == 0, result.output
    doc = json.loads((run_dir / "analysis" / "entropy.json").read_text())
    assert doc["items"] == {"answers": 2, "traced": 1, "no_trace": 0, "unreadable": 1, "unscored": 0}
    assert doc["phases"]["correct"]["1"]["mean"] == pytest.approx(1.5)  # item a alone, as by hand above
    (skipped,) = doc["unreadable_traces"]
    assert skipped.startswith(str(tmp_path / "traces")) and skipped.endswith(
        ": not a complete trace (no entropy array)"
    )
    assert f"skipped unreadable trace(s): {skipped}\n" in result.output


def test_arrays_of_different_lengths_name_the_file(tmp_path: Path) -> None:
    values = [0, 0, 0, 1.0, 2.0, 0, 0, 0, 4.0]
    short = char_trace("(1)wv(2)u", entropies=values)
    short["entropy"] = short["entropy"][:-2]
    rows = {"a": (char_trace("(1)xy(2)z", entropies=values), "A", 1.0), "b": (short, "A", 0.0)}
    run_dir = write_traced_run(tmp_path / "run", tmp_path / "traces", rows)
    result = CliRunner().invoke(app, ["entropy", str(run_dir)])
    assert result.exit_code == 0, result.output
    (skipped,) = json.loads((run_dir / "analysis" / "entropy.json").read_text())["unreadable_traces"]
    assert skipped.endswith(
        ": arrays of different lengths (tokens: token_ids 9, pieces 9, offsets 9, "
        "entropy 7, logsumexp 9, topk_ids 9, topk_logits 9)"
    )
