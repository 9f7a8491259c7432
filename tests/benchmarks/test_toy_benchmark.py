"""A new benchmark is one module: loader + prompt builder + table, registered at test time, run end to end.

Nothing outside this file knows the toy benchmark: it is added to ``BENCHMARKS`` by a fixture, then
``spatialbench run`` asks the loopback OpenAI-compatible server and ``spatialbench score`` scores saved
predictions, both through the same spec.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from spatialbench.benchmarks import BENCHMARKS, BenchmarkSpec
from spatialbench.cli.main import app
from spatialbench.prompting import PromptBuilder
from spatialbench.records.item import AnswerKind, Item
from spatialbench.records.messages import Request, TextPart
from spatialbench.records.rows import LoadedItems
from spatialbench.scoring import STANDARD_MODES, Group, ScoringRules, Table, grouped
from support.openai_server import OpenAIServer, ServerScript

NAME = "toy-colours"
KINDS = ("colour", "count")
QUESTIONS = [
    {"id": "q1", "kind": "colour", "question": "Sky colour?", "choices": ["red", "blue"], "answer": "B"},
    {"id": "q2", "kind": "colour", "question": "Grass colour?", "choices": ["green", "pink"], "answer": "A"},
    {"id": "q3", "kind": "count", "question": "Legs of a cat?", "choices": ["2", "4", "6"], "answer": "B"},
]
ANSWERS = {"Sky": "B", "Grass": "B", "cat": "The answer is B."}  # the server: right for q1 and q3


def load_toy(path: Path) -> LoadedItems:
    """Loader: one JSON question per line."""
    items = LoadedItems()
    for line in Path(path).read_text().splitlines():
        row = json.loads(line)
        items.append(
            Item(
                id=row["id"],
                benchmark=NAME,
                task=row["kind"],
                question=row["question"],
                options=tuple(f"{chr(65 + i)}. {c}" for i, c in enumerate(row["choices"])),
                ground_truth=row["answer"],
                answer_kind=AnswerKind.MULTIPLE_CHOICE,
            )
        )
    return items


class ToyBuilder(PromptBuilder):
    """Prompt builder: the question and its options, no media."""

    def build(self, item: Item, media: Sequence[Any]) -> Request:
        """One text part."""
        text = "\n".join([item.question, *item.options, "Answer with the letter."])
        return Request(parts=(TextPart(text),))


def toy_table(rows: pd.DataFrame) -> Table:
    """Table: one column per kind, Avg. over the questions."""
    return grouped(rows, [Group.of(kind.title(), kind, task=kind) for kind in KINDS], weighting="questions")


SPEC = BenchmarkSpec(
    name=NAME,
    description="toy colour questions",
    load=load_toy,
    prompt_builder=ToyBuilder,
    scoring=ScoringRules(name=NAME, table=toy_table, modes=STANDARD_MODES),
)


@pytest.fixture
def toy_data(tmp_path: Path) -> Path:
    if NAME not in BENCHMARKS:
        BENCHMARKS.add(NAME, SPEC)
    path = tmp_path / "toy.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    return path


def _answer(text: str) -> str:
    return next(answer for word, answer in ANSWERS.items() if word in text)


def test_toy_benchmark_runs_and_scores_end_to_end(toy_data: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    out = tmp_path / "run"
    script = ServerScript(answer=_answer)
    with OpenAIServer(script) as server:
        args = ["run", "--benchmark", NAME, "--data", str(toy_data), "--out", str(out), "--no-progress"]
        result = CliRunner().invoke(app, [*args, "--model", f"openai-compatible:{server.url}#toy"])
    assert result.exit_code == 0, result.output
    assert "3 items: 0 already answered, 3 answered now, 0 empty, 0 failed" in result.output
    assert len(script.answered()) == 3 and all(r.n_images == 0 for r in script.answered())
    assert "| all | 66.7 | 50.0 | 100.0 |" in result.output  # Avg. over questions, Colour, Count
    scores = json.loads((out / "scores.json").read_text())
    assert scores["benchmark"] == NAME and scores["colour"] == 50.0 and scores["count"] == 100.0

    predictions = tmp_path / "predictions.jsonl"
    lines = [json.dumps({"id": q["id"], "response": q["answer"]}) + "\n" for q in QUESTIONS]
    predictions.write_text("".join(lines))
    scored = CliRunner().invoke(app, ["score", "-b", NAME, "-a", str(toy_data), "-p", str(predictions)])
    assert scored.exit_code == 0, scored.output
    assert "| all | 100.0 | 100.0 | 100.0 |" in scored.output
