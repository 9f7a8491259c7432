"""VSI-SUPER requests are lmms-eval's ``vsisuper`` texts exactly (issue 24).

Transcribed from lmms-eval (EvolvingLMMs-Lab/lmms-eval at 75571cfe) ``lmms_eval/tasks/vsisuper/recall/
vsr_utils.py`` and ``count/vsc_utils.py`` / ``count_streaming/vsc_streaming_utils.py`` ``doc_to_text``
(not calling spatialbench). Recall has no "These are frames of a video." line; the request used to carry
VSI-Bench's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import test_vsi_super, test_vsi_super_streaming
from spatialbench.benchmarks import get_benchmark
from spatialbench.prompting.config import PromptConfig
from support.scripted_runs import scripted_run

LETTERED = [f"{letter}. {text}" for letter, text in zip("ABCD", test_vsi_super.OPTIONS, strict=True)]


def _recall_doc_to_text(doc: dict) -> str:
    question = str(doc["question"]).strip()
    options = doc.get("options") or []
    options_text = "\n".join(str(option) for option in options)
    return (
        question
        + "\nOptions:\n"
        + options_text
        + "\nAnswer with the option's letter from the given choices directly."
    )


def _count_doc_to_text(doc: dict) -> str:
    question = str(doc["question"]).strip()
    return (
        "These are frames of a video.\n"
        + question
        + "\nPlease answer the question using a single word or phrase."
    )


def _docs(data: Path) -> list[dict]:
    return json.loads((data / "test.json").read_text())


def _lettered_recall(folder: Path) -> Path:
    data = test_vsi_super.recall_release(folder)
    rows = _docs(data)
    for row in rows:
        row["options"], row["question"] = LETTERED, f"  {row['question']} "  # spaces the official text strips
    (data / "test.json").write_text(json.dumps(rows))
    return data


@pytest.mark.parametrize(
    "build", [test_vsi_super.recall_release, _lettered_recall], ids=["plain", "lettered"]
)
def test_recall_text_is_doc_to_text(build, tmp_path: Path) -> None:  # noqa: ANN001
    data = build(tmp_path / "recall")
    spec = get_benchmark("vsi-super-recall")
    builder = spec.prompt_builder(PromptConfig())
    items = spec.load_items(data)
    assert [builder.text(i) for i in items] == [_recall_doc_to_text(d) for d in _docs(data)]
    assert [i.options for i in items] == [tuple(LETTERED)] * 4  # scored against the letters either way
    assert builder.max_new_tokens(items[0]) == 16  # _default_vsr_yaml


@pytest.mark.parametrize(
    ("name", "build"),
    [
        ("vsi-super-count", test_vsi_super.count_release),
        ("vsi-super-count-streaming", test_vsi_super_streaming._release),
    ],
)
def test_count_text_is_doc_to_text(name: str, build, tmp_path: Path) -> None:  # noqa: ANN001
    data = build(tmp_path / "count")
    spec = get_benchmark(name)
    builder = spec.prompt_builder(PromptConfig())
    by_id = {str(d["id"]): d for d in _docs(data)}
    assert [builder.text(i) for i in spec.load_items(data)] == [
        _count_doc_to_text(by_id[i.id]) for i in spec.load_items(data)
    ]


@pytest.mark.slow
def test_the_recall_request_sent_is_the_official_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = _lettered_recall(tmp_path / "recall")
    script = scripted_run("vsi-super-recall", data, tmp_path / "run", lambda _: "A", "--frames", "uniform:4")
    sent = sorted((r.text, r.n_images) for r in script.answered())
    assert sent == sorted((_recall_doc_to_text(d), 4) for d in _docs(data))
    assert not any("These are frames of a video." in text for text, _ in sent)


@pytest.mark.slow
def test_the_streaming_request_sent_is_the_official_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lmms-eval's ``vsc_streaming_utils.doc_to_text`` names no query times (its ``query_times`` column
    drives the Cambrian-S streaming model's answers, not the text): the request is that text, exactly."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = test_vsi_super_streaming._release(tmp_path / "count")
    script = scripted_run("vsi-super-count-streaming", data, tmp_path / "run", lambda _: "[3]",
                          "--frames", "uniform:4")
    streaming = [d for d in _docs(data) if str(d["split"]).endswith("_streaming")]
    sent = sorted(r.text for r in script.answered())
    assert sent == sorted(_count_doc_to_text(d) for d in streaming)
    assert sent[0] == ("These are frames of a video.\nStreaming question 0: how many chairs have you seen at "
                       "each query time?\nPlease answer the question using a single word or phrase.")
