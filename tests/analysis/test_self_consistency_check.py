"""``spatialbench consistency`` end to end: the run's images and question come back with its reasoning.

The run answers every ReMindView fixture item with the same 4-phase text ending in A (6 of 11 right). The
scripted model then labels, by question: of the 6 right answers 5 consistent and 1 inconsistent; of the 5
wrong ones 2 consistent and 3 inconsistent; one reply ("Maybe.") is invalid and asked once more. Table 3
by hand: 5/6 = 83.3, 2/5 = 40.0, 7/11 = 63.6.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.mmsi_remindview_fixtures import build_remindview
from spatialbench.analysis.consistency import read_label
from spatialbench.api import run
from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from spatialbench.runs import RunConfig
from support.judge_scripts import FOUR_PHASES
from support.openai_server import OpenAIServer, ServerScript

INCONSISTENT = {"object_centric_qa:2", "object_centric_qa:0", "object_centric_qa:1", "view_centric_qa:0"}
INVALID_FIRST = "object_centric_qa:4"


def _question(text: str, questions: dict[str, str]) -> str:
    return max((q for q in questions if q in text), key=len)


def test_consistency_table_and_images(tmp_path: Path) -> None:
    data = build_remindview(tmp_path / "data")
    items = {i.question: i.id for i in get_benchmark("remindview").load_items(str(data))}
    model = ServerScript(answer=lambda text: FOUR_PHASES)
    with OpenAIServer(model) as server:
        config = RunConfig.model_validate(
            {
                "data": {"benchmark": "remindview", "path": str(data)},
                "model": {"name": f"openai-compatible:{server.url}#vlm", "timeout_s": 10},
                "out": str(tmp_path / "run"),
            }
        )
        assert run(config, progress=False).counts["ok"] == 11

    def label(text: str) -> str:
        item = items[_question(text, items)]
        if item == INVALID_FIRST and "is not valid" not in text:
            return "Maybe."
        return "Inconsistent." if item in INCONSISTENT else "**Consistent**"

    checker = ServerScript(answer=label)
    with OpenAIServer(checker) as server:
        args = ["consistency", str(tmp_path / "run"), "--model", f"openai-compatible:{server.url}#vlm"]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    sent = {_question(r.text, items): r.n_images for r in model.answered()}
    first_asks = [r for r in checker.answered() if "is not valid" not in r.text]
    assert len(first_asks) == 11 and len(checker.answered()) == 12
    for request in first_asks:  # server side: the run's own images of that item, then the instruction
        assert request.n_images == sent[_question(request.text, items)] >= 2
        assert "From frame1, the lamp is to my left." in request.text and "A. left" in request.text
        assert "Output one of the following labels only" in request.text
    doc = json.loads((tmp_path / "run" / "analysis" / "consistency.json").read_text())
    assert doc["analysis"] == "consistency" and doc["version"] == 1
    table = doc["table"]
    assert (table["correct"]["consistent"], table["correct"]["items"]) == (5, 6)
    assert table["correct"]["percent"] == pytest.approx(500 / 6)
    assert table["incorrect"]["percent"] == pytest.approx(40.0)
    assert table["all"]["percent"] == pytest.approx(700 / 11)
    assert doc["items"]["requests_sent"] == 12 and doc["items"]["failed"] == 0
    assert "| run | 83.3 | 40.0 | 63.6 |" in result.output
    assert "| Qwen2.5-VL-7B (Table 3) | 74.1 | 41.7 | 59.3 |" in result.output


def test_labels_are_read_strictly() -> None:
    assert read_label("**Consistent**") == "consistent"
    assert read_label("Inconsistent.") == "inconsistent"
    assert read_label("Consistent or Inconsistent") is None
    assert read_label("It follows.") is None


def test_a_negated_label_reads_as_its_opposite() -> None:
    # the failing input: a word-set match read "Not consistent" as consistent
    assert read_label("Not consistent.") == "inconsistent"
    assert read_label("The answer isn't consistent") == "inconsistent"
    assert read_label("**Not inconsistent**") == "consistent"
    assert read_label("Not consistent; inconsistent") == "inconsistent"


def test_the_request_is_table_9_only_and_answers_without_phases_are_counted(tmp_path: Path) -> None:
    data = build_remindview(tmp_path / "data")
    items = {i.question: i for i in get_benchmark("remindview").load_items(str(data))}
    bare = sorted(items)[0]  # this item's answer has no phases: nothing to check (as judge)
    model = ServerScript(answer=lambda text: "A. left" if bare in text else FOUR_PHASES)
    with OpenAIServer(model) as server:
        config = RunConfig.model_validate(
            {
                "data": {"benchmark": "remindview", "path": str(data)},
                "model": {"name": f"openai-compatible:{server.url}#vlm", "timeout_s": 10},
                "out": str(tmp_path / "run"),
            }
        )
        assert run(config, progress=False).counts["ok"] == 11
    run_requests = {_question(r.text, items): r for r in model.answered()}
    checker = ServerScript(answer=lambda text: "Not consistent")
    with OpenAIServer(checker) as server:
        args = ["consistency", str(tmp_path / "run"), "--model", f"openai-compatible:{server.url}#vlm"]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    log = checker.answered()
    assert len(log) == 10 and all(bare not in r.text for r in log)
    for request in log:
        item = items[_question(request.text, items)]
        sent = run_requests[item.question]
        assert [m["role"] for m in request.body["messages"]] == ["user"]  # no 4-phase system prompt
        assert "Your last line must match" not in request.text and "Reasoning Path" not in request.text
        assert request.n_images == sent.n_images >= 2 and "frame0:" in request.text
        query = "\n".join([item.question, *item.options])
        assert f"### The original spatial reasoning query ###\n{query}\n" in request.text
        assert "### The model's final answer choice ###\nA. left\n" in request.text
        assert request.text.rstrip().endswith("Do NOT provide chain-of-thought or explanations.")
        assert request.body["max_tokens"] == 64 and request.body["temperature"] == 0.0
    doc = json.loads((tmp_path / "run" / "analysis" / "consistency.json").read_text())
    assert doc["items"]["no_phases"] == 1 and doc["items"]["checked"] == 10
    assert doc["table"]["all"] == {"percent": 0.0, "consistent": 0, "items": 10}  # "Not consistent" read


def test_nothing_checked_keeps_the_previous_consistency_json(tmp_path: Path) -> None:
    data = build_remindview(tmp_path / "data")
    with OpenAIServer(ServerScript(answer=lambda text: FOUR_PHASES)) as server:
        config = RunConfig.model_validate(
            {
                "data": {"benchmark": "remindview", "path": str(data)},
                "model": {"name": f"openai-compatible:{server.url}#vlm", "timeout_s": 10},
                "out": str(tmp_path / "run"),
            }
        )
        run(config, progress=False)
    previous = tmp_path / "run" / "analysis" / "consistency.json"
    previous.parent.mkdir(parents=True, exist_ok=True)
    previous.write_text('{"kept": true}')
    with OpenAIServer(ServerScript(answer=lambda text: "Maybe.")) as server:
        args = ["consistency", str(tmp_path / "run"), "--model", f"openai-compatible:{server.url}#vlm"]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    assert "nothing scored" in result.output and json.loads(previous.read_text()) == {"kept": True}
