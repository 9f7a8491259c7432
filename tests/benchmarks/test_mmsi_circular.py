"""MMSI-Bench circular evaluation: four rotations per question, a question right only when all four are.

The official code (github InternRobotics/MMSI-Bench, ``vlmeval/dataset/mmsi_bench.py``, ``MMSIBenchCircular``:
``load_data`` builds the rotations, ``evaluate`` groups by ``g_index``) is written again here, apart from
spatialbench: ``_official_rotations`` builds the rotated rows from the TSV rows, ``_official_tables`` scores
the rows of a run (extraction by ``_official_score`` of test_mmsi_bench); the loopback run's items, per-group
scores and tables agree with it (Δ 0).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_mmsi_bench import ATTR, CASES, MSR, POS, _official_score, _write_both

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.mmsi_bench import prompt_text
from support.image_tables import png, tsv_image, write_tsv
from support.scripted_runs import breakdown_and_report, run_items, scripted_run

CONTENT = {"A": "left", "B": "right", "C": "front", "D": "behind"}
# how the scripted model answers question k, given the rotated options it is shown:
# "content" names the letter now holding the right content; "B"/"D" always that letter (position bias);
# "content-but-2" is "content" except rotation 2, where it answers "no idea" (no letter: wrong)
POLICY = ["content", "B", "content", "content-but-2", "D", "content"]
# by hand (answers A, B, C, D, A, B): circular 1, 0, 1, 0, 0, 1; vanilla (rotation 0) 1, 1, 1, 1, 0, 1
CIRCULAR, VANILLA = [1, 0, 1, 0, 0, 1], [1, 1, 1, 1, 0, 1]


def _official_rotations(rows: list[dict]) -> list[dict]:
    """``MMSIBenchCircular.load_data`` again: four cyclic orders, index + i * 1e6, g_index."""
    out = []
    for row in rows:
        text, rest = row["question"].split("Options:", 1)
        pattern = r"([A-D])\s*:\s*(.*?)(?=\s+[A-D]\s*:|,\s*[A-D]\s*:|$)"
        options = {m[0]: m[1].strip() for m in re.findall(pattern, rest.strip())}
        for i, order in enumerate(["ABCD", "BCDA", "CDAB", "DABC"]):
            new = {k: options[o] for k, o in zip("ABCD", order, strict=True) if o in options}
            question = text.strip() + "\nOptions: " + ", ".join(f"{k}: {v}" for k, v in new.items())
            out.append(
                {
                    **row,
                    "question": question,
                    "answer": "ABCD"[order.index(row["answer"])],
                    "index": int(row["index"]) + i * 1000000,
                    "g_index": int(row["index"]),
                }
            )
    return out


def _official_tables(data: pd.DataFrame) -> tuple[dict, dict, list[int]]:
    """``MMSIBenchCircular.evaluate`` again: circular = all rotations right, vanilla = the smallest index."""
    data["extracted_ok"] = [
        _official_score(p, a) for p, a in zip(data["prediction"], data["answer"], strict=True)
    ]
    circular, vanilla = [], []
    for _, group in data.groupby("g_index"):
        circular.append({"category": group["category"].iloc[0], "hit": int(group["extracted_ok"].all())})
        first = group.loc[group["index"].idxmin()]
        vanilla.append({"category": first["category"], "hit": int(first["extracted_ok"])})
    tables = []
    for frame in (pd.DataFrame(circular), pd.DataFrame(vanilla)):
        acc = {"Overall": np.mean(frame["hit"])}
        acc.update({c: np.mean(frame[frame["category"] == c]["hit"]) for c in frame["category"].unique()})
        tables.append(acc)
    return tables[0], tables[1], list(pd.DataFrame(circular)["hit"])


def _respond(text: str) -> str:
    k = int(re.search(r"Question (\d+):", text).group(1))
    shown = dict(re.findall(r"([A-D]): (\w+)", text.split("Options:")[1]))
    by_content = {v: letter for letter, v in shown.items()}
    rotation = (4 - "ABCD".index(by_content["left"])) % 4  # "left" (option A) sits at 0, 3, 2, 1
    right = by_content[CONTENT[CASES[k][1]]]
    policy = POLICY[k]
    if policy in ("B", "D"):
        return f"``{policy}``"
    if policy == "content-but-2" and rotation == 2:
        return "no idea"
    return f"``{right}``"


def _kit_rows(folder: Path) -> list[dict]:
    frame = pd.read_csv(_write_both(folder)[1], sep="\t", dtype=str, keep_default_na=False)
    return frame.to_dict(orient="records")


def test_rotations_are_the_official_ones(tmp_path: Path) -> None:
    spec = get_benchmark("mmsi-bench")
    tsv = _write_both(tmp_path)[1]
    items = spec.load_items(tsv, evaluation="circular")
    official = _official_rotations(_kit_rows(tmp_path / "again"))
    assert not items.errors and len(items) == 4 * len(CASES)
    by_id = {i.id: i for i in items}
    for row in official:
        item = by_id[str(row["index"])]
        assert (item.question, item.ground_truth, item.metadata["g_index"]) == (
            row["question"],
            row["answer"],
            str(row["g_index"]),
        )
    assert by_id["1000000"].question.endswith("Options: A: right, B: front, C: behind, D: left")
    assert by_id["1000000"].ground_truth == "D"  # answer A ("left") moved to D in order BCDA


def test_unknown_evaluation_is_refused(tmp_path: Path) -> None:
    spec = get_benchmark("mmsi-bench")
    with pytest.raises(ValueError, match="unknown evaluation 'rotated'; known: vanilla, circular"):
        spec.check_options({"evaluation": "rotated"})


def test_a_question_without_options_is_a_row_error(tmp_path: Path) -> None:
    rows = _kit_rows(tmp_path)
    rows[0]["question"] = "Where is it?"
    tsv = tmp_path / "bad" / "MMSI_Bench.tsv"
    tsv.parent.mkdir()
    pd.DataFrame(rows).to_csv(tsv, sep="\t", index=False)
    loaded = get_benchmark("mmsi-bench").load_items(tsv, evaluation="circular")
    assert len(loaded) == 4 * (len(CASES) - 1) and [e.line for e in loaded.errors] == [2]
    assert "Options:" in str(loaded.errors[0])


@pytest.mark.slow
def test_loopback_circular_run_scores_the_official_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    parquet, _ = _write_both(tmp_path)
    out = tmp_path / "run"
    script = scripted_run("mmsi-bench", parquet, out, _respond, "--option", "evaluation=circular")
    assert len(script.answered()) == 4 * len(CASES)
    predictions = run_items(out)["prediction"]
    rows = [
        {**row, "prediction": predictions[str(row["index"])]}
        for row in _official_rotations(_kit_rows(tmp_path / "kit2"))
    ]
    circular, vanilla, per_group = _official_tables(pd.DataFrame(rows))
    assert per_group == CIRCULAR
    scores = json.loads((out / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(100 * circular["Overall"]) == pytest.approx(50.0)  # Δ 0
    for task in (POS, ATTR, MSR):
        assert scores[task] == pytest.approx(100 * circular[task])
    assert (scores[POS], scores[ATTR], scores[MSR]) == (50.0, pytest.approx(100 / 3), 100.0)
    broken, _ = breakdown_and_report(out, tmp_path / "report")
    assert "vanilla (rotation 0 of each question)" in broken
    assert vanilla["Overall"] == pytest.approx(sum(VANILLA) / 6)  # 83.3
    cells = [f"{100 * vanilla[t]:.1f}" for t in (POS, ATTR, MSR)]  # the paper's order of the categories
    assert f"| accuracy | {' | '.join(cells)} |" in broken  # 100.0 | 66.7 | 100.0


def _easi_prompt(row: dict) -> str:
    """EASI's ``MMSIBench.build_prompt`` text, again (options from the ``A``-``D`` columns)."""
    options = "Options: " + "".join(f"{k}: {row[k]}, " for k in "ABCD" if row.get(k))
    post = (
        "Answer with the option's letter from the given choices directly. "
        "Enclose the option's letter within ``."
    )
    return f"{row['question']}\n{options}\n{post}"


def test_easi_option_columns_are_prompted_and_rotated(tmp_path: Path) -> None:
    row = {
        "index": 7,
        "image": tsv_image([png(7)]),
        "question": "Where is the cup?",
        "A": "left",
        "B": "right",
        "C": "front",
        "D": "behind",
        "answer": "B",
        "category": MSR,
    }
    tsv = write_tsv([row], tmp_path / "MMSIBench_wo_circular.tsv")
    spec = get_benchmark("mmsi-bench")
    (item,) = spec.load_items(tsv)
    assert prompt_text(item) == _easi_prompt(row)
    rotated = {i.id: i for i in spec.load_items(tsv, evaluation="circular")}
    assert rotated["1000007"].question == "Where is the cup?\nOptions: A: right, B: front, C: behind, D: left"
    assert [rotated[str(7 + k * 1000000)].ground_truth for k in range(4)] == ["B", "A", "D", "C"]
