"""MindCube: the release JSONL and the EASI TSV load alike, a loopback run scores the official way (Δ 0).

``_official_extract`` transcribes the official ``extract_answer`` (github mll-lab-nu/MindCube,
``src/evaluation/core/extractors.py``) in full, every pattern in its order, and ``_official_overall`` the
``BasicEvaluator`` rule (setting from the id, ``translation`` out of the overall, correct / total): both
applied to the same responses give the per-item scores and the overall of spatialbench's run.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.mindcube import answer_tag_choice, official_choice, prompt_text
from spatialbench.cli.main import app
from support.image_tables import png, tsv_image, write_tsv
from support.scripted_runs import scripted_run

OPTIONS = "A. Above B. Under C. Front D. Behind"
# (id, answer, number of images, the scripted response)
CASES = [
    ("rotation_kitchen_001", "A", 4, "<answer>A. Above</answer>"),
    ("rotation_kitchen_002", "B", 4, "<answer>B</answer> since it sits in the MIDDLE."),  # official: E
    ("among_group3_007", "C", 4, "I think the answer is C"),
    ("among_group3_008", "D", 2, "Answer: D"),
    ("around_desk_012", "B", 3, "<Answer> my answer is B"),
    ("around_desk_013", "A", 3, "No idea."),  # no letter at all
    ("translation_hall_020", "C", 2, "C. Front"),  # tracked, not in the overall
]
# by hand, the official reader: A. → A 1; "MIDDLE." → E 0; "answer is C" 1; "Answer: D" 1;
# <Answer> section "my answer is B" 1; none 0; C 1 (translation)
OFFICIAL = [1, 0, 1, 1, 1, 0, 1]
TAG = [1, 1, 1, 1, 1, 0, 1]  # answer-tag reads "B" inside the tag of item 2


def _question(k: int) -> str:
    return f"Question {k}: from view 2, what is next to the sofa? {OPTIONS}"


def _images(k: int, n: int) -> list[bytes]:
    return [png(10 * k + j) for j in range(n)]


def write_release(folder: Path) -> Path:
    """``data/raw/MindCube_tinybench.jsonl`` with images under ``data/other_all_image/<setting>/``."""
    data = folder / "data"
    lines = []
    for k, (item_id, answer, n, _) in enumerate(CASES):
        paths = []
        for j, image in enumerate(_images(k, n)):
            path = Path("other_all_image") / item_id.split("_")[0] / f"{item_id}_{j}.png"
            (data / path).parent.mkdir(parents=True, exist_ok=True)
            (data / path).write_bytes(image)
            paths.append(str(path))
        lines.append(
            json.dumps(
                {
                    "id": item_id,
                    "category": ["object"],
                    "type": "self",
                    "meta_info": [],
                    "question": _question(k),
                    "images": paths,
                    "gt_answer": answer,
                }
            )
        )
    (data / "raw").mkdir(parents=True)
    (data / "raw" / "MindCube_tinybench.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def write_tsv_release(folder: Path) -> Path:
    rows = [
        {
            "index": k,
            "image": tsv_image(_images(k, n)),
            "question": _question(k),
            "answer": answer,
            "category": item_id.split("_")[0],
        }
        for k, (item_id, answer, n, _) in enumerate(CASES)
    ]
    return write_tsv(rows, folder / "MindCubeBench_tiny_raw_qa.tsv")


def _official_extract(text: str) -> str | None:
    """``extract_answer``, transcribed pattern by pattern (not calling spatialbench)."""
    if not text:
        return None
    simple = list(re.finditer(r"([A-E])\.", text))
    if simple:
        return simple[-1].group(1)
    section = re.search(r"<Answer>(.*?)(?:<|$)", text, re.DOTALL)
    if section:
        for pattern in [
            r"[Mm]y answer is ([A-E])",
            r"[Mm]y answer is ([A-E])\.",
            r"[Tt]he answer is ([A-E])",
            r"(?:Answer: )?([A-E])\.",
            r"\b([A-E])\b",
        ]:
            found = list(re.finditer(pattern, section.group(1)))
            if found:
                return found[-1].group(1)
    for pattern in [
        r"(?:Answer: )?([A-E])\. [A-Za-z0-9 \-\(\)\'\",]+(?=(?:\n|$|\.|\"))",
        r"(?:Answer: )?([A-E])\. [A-Za-z0-9 \-\(\)\'\"]+",
        r"(?:^|\n)(?:Answer: )?([A-E])(?:\.|$|\s)",
        r"[\*\"]([A-E])[\*\"]",
        r"\bAnswer:?\s*([A-E])\b",
        r"[Mm]y answer is ([A-E])",
        r"[Mm]y answer is ([A-E])\.",
        r"answer is ([A-E])",
    ]:
        found = list(re.finditer(pattern, text))
        if found:
            return found[-1].group(1)
    lines = text.split("\n")
    full = [m.group(1) for line in lines if (m := re.search(r"([A-E])\. [A-Za-z0-9 \-\(\)\'\",]+", line))]
    if full:
        return full[-1]
    for line in reversed(lines):
        found = re.search(r"\b([A-E])\b", line)
        if found:
            return found.group(1)
    return None


def _official_overall(ids: list[str], correct: list[int]) -> float:
    """``BasicEvaluator``: the setting from the id; translation counted per setting, not overall."""
    kept = [c for i, c in zip(ids, correct, strict=True) if "translation" not in i.lower()]
    return 100 * sum(kept) / len(kept)


MORE = [
    "B.",
    "x\nC\ny",
    '"D" is it',
    "**E**",
    "my answer is A",
    "<Answer>the answer is C</Answer>",
    "Answer:B",
    "A\nB",
    "nothing",
    "",
    "between A and B, the answer is B",
    "Option E. Far",
]


@pytest.mark.parametrize("text", [c[3] for c in CASES] + MORE)
def test_reader_is_the_official_function(text: str) -> None:
    assert official_choice(text).value == _official_extract(text)


def test_per_item_scores_by_hand() -> None:
    assert [float(_official_extract(r) == a) for _, a, _, r in CASES] == OFFICIAL
    assert [float(official_choice(r).value == a) for _, a, _, r in CASES] == OFFICIAL
    assert [float(answer_tag_choice(r).value == a) for _, a, _, r in CASES] == TAG


def test_release_and_tsv_give_the_same_items(tmp_path: Path) -> None:
    spec = get_benchmark("mindcube")
    release = spec.load_items(write_release(tmp_path / "hf"), subset="tiny")
    kit = spec.load_items(write_tsv_release(tmp_path / "kit"))
    assert not release.errors and not kit.errors and len(release) == len(kit) == len(CASES)
    assert [i.task for i in release] == [i.task for i in kit] == [c[0].split("_")[0] for c in CASES]
    for a, b in zip(release, kit, strict=True):
        assert (a.question, a.options, a.ground_truth) == (b.question, b.options, b.ground_truth)
        assert [Path(m.path).read_bytes() for m in a.media] == [Path(m.path).read_bytes() for m in b.media]
    assert release[0].options == ("A. Above", "B. Under", "C. Front", "D. Behind")
    assert prompt_text(release[0]).startswith("[Task]\nYour task is to analyze the spatial arrangement")
    assert prompt_text(release[0]).endswith("'<answer>A. Above</answer>'.\n\n[Question]\n" + _question(0))
    with pytest.raises(FileNotFoundError, match="MindCube.jsonl"):
        spec.load_items(tmp_path / "hf")  # the full benchmark's file is not there


@pytest.mark.slow
def test_loopback_run_scores_the_official_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = write_release(tmp_path / "hf")
    responses = {_question(k): c[3] for k, c in enumerate(CASES)}
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    out = tmp_path / "run"
    script = scripted_run("mindcube", data, out, responses, "--subset", "tiny")
    assert sorted(r.n_images for r in script.answered()) == sorted(n for _, _, n, _ in CASES)
    scores = json.loads((out / "scores.json").read_text())
    official = [int(_official_extract(r) == a) for _, a, _, r in CASES]
    overall = _official_overall([c[0] for c in CASES], official)
    assert scores["overall"] == pytest.approx(overall) == pytest.approx(400 / 6)  # 4 of 6, Δ 0
    assert scores["rotation"] == 50.0 and scores["among"] == 100.0 and scores["around"] == 50.0
    assert scores["translation"] == 100.0  # tracked per setting, as officially, not in the overall
    tagged = CliRunner().invoke(app, ["score", "--run", str(out), "--extract", "answer-tag"])
    assert tagged.exit_code == 0, tagged.output
    assert "| 83.3 |" in tagged.output  # 5 of 6
    broken = CliRunner().invoke(app, ["breakdown", "--run", str(out)])
    assert "| accuracy | 50.0 | 100.0 | 50.0 | 100.0 |" in broken.output, broken.output  # translation 1/1
    report = CliRunner().invoke(app, ["report", str(out), "--out", str(tmp_path / "report")])
    assert report.exit_code == 0, report.output
    html = (tmp_path / "report" / "index.html").read_text()
    assert "<th>rotation</th>" in html
    # the overall's n: the 6 questions it covers, not translation's
    assert "n=6*" in html and "n=7*" not in html
