"""ViewSpatial-Bench: the release JSON loads, a loopback run scores, the official reader is reproduced (Δ 0)
and the default reader does not take the article "a" for option A (the peer bug of issue 24).

``_official_correct`` writes the official ``evaluate.py`` rule again (``extract_option`` of the last line,
case-insensitive ``\\b([A-D])\\b``, against the same reading of ``answer``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.viewspatial import official_choice, viewspatial_choice
from spatialbench.cli.main import app
from support.image_tables import png
from support.openai_server import OpenAIServer, ServerScript

CAM, PER = "Camera perspective - Relative Direction", "Person perspective - Object View Orientation"
# (question type, answer, response)
CASES = [
    (CAM, "A. right", "A"),
    (CAM, "C. back-left", "Looking at it, a chair is on the left, so C"),  # official: A (the article)
    (CAM, "B. front", "The table is in front.\nB. front"),  # last line read
    (PER, "D. back", "d"),
    (PER, "A. left", "B"),
    (PER, "B. right", "a bike stands there"),  # official: A; ours: no answer
]
OFFICIAL = [1, 0, 1, 1, 0, 0]  # by hand: A=A, a->A!=C, B=B, d->D=D, B!=A, a->A!=B
OURS = [1, 1, 1, 1, 0, 0]  # the article is skipped: C=C; "a bike": no letter


def _official_correct(prediction: str, answer: str) -> bool:
    def extract(text: str) -> str | None:
        found = re.search(r"\b([A-D])\b", text, re.IGNORECASE)
        return found.group(1).upper() if found else None

    return extract(prediction.split("\n")[-1]) == extract(answer)


def write_release(folder: Path) -> Path:
    entries = []
    for k, (kind, answer, _) in enumerate(CASES):
        image = Path("ViewSpatial-Bench/scannetv2_val/scene0011_00/original_images") / f"{k}.jpg"
        (folder / image).parent.mkdir(parents=True, exist_ok=True)
        (folder / image).write_bytes(png(k))
        entries.append({"question_type": kind, "image_path": [str(image)], "question": f"Where is thing {k}?",
                        "answer": answer, "choices": "A. left\nB. front\nC. back-left\nD. back"})
    path = folder / "ViewSpatial-Bench.json"
    path.write_text(json.dumps(entries, indent=2))
    return path


def test_the_article_a_is_not_option_a() -> None:
    assert official_choice("a chair is on the left, so C").value == "A"  # the official reader's reading
    assert viewspatial_choice("a chair is on the left, so C").value == "C"
    assert viewspatial_choice("A chair is on the left.").value is None
    assert viewspatial_choice("A. left").value == "A" and viewspatial_choice("a").value == "A"
    letters = [c[1][0] for c in CASES]
    assert [float(official_choice(r).value == g) for (_, _, r), g in zip(CASES, letters, strict=True)] \
        == [float(_official_correct(r, a)) for _, a, r in CASES] == OFFICIAL
    ours = [float(viewspatial_choice(r).value == g) for (_, _, r), g in zip(CASES, letters, strict=True)]
    assert ours == OURS


def test_release_json_loads(tmp_path: Path) -> None:
    items = get_benchmark("viewspatial").load_items(write_release(tmp_path))
    assert not items.errors and [i.ground_truth for i in items] == ["A", "C", "B", "D", "A", "B"]
    assert items[0].options == ("A. left", "B. front", "C. back-left", "D. back")
    assert items[3].metadata["perspective"] == "Person perspective"
    assert Path(items[2].media[0].path).read_bytes() == png(2)


@pytest.mark.slow
def test_loopback_run_scores_both_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = write_release(tmp_path / "data")
    responses = {f"Where is thing {k}?": c[2] for k, c in enumerate(CASES)}
    script = ServerScript(answer=lambda text: next(r for q, r in responses.items() if q in text))
    out = tmp_path / "run"
    with OpenAIServer(script) as server:
        args = ["run", "--benchmark", "viewspatial", "--data", str(data), "--out", str(out), "--no-progress",
                "--model", f"openai-compatible:{server.url}#m"]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    ending = "D. back\nReply only to the corresponding option.\nAnswer:"
    assert all(r.text.endswith(ending) for r in script.answered())
    # evaluate.py since 90a8c34 (ZJU-REAL/ViewSpatial-Bench, 2026-01-08): question + choices + prompt_format,
    # nothing between the question and its choices
    assert any("Where is thing 0?A. left\nB. front\n" in r.text for r in script.answered())
    scores = json.loads((out / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(100 * sum(OURS) / 6)
    assert scores[CAM] == 100.0 and scores[PER] == pytest.approx(100 / 3)
    official = CliRunner().invoke(app, ["score", "--run", str(out), "--extract", "official"])
    assert official.exit_code == 0, official.output
    assert "| 50.0 |" in official.output  # 3/6, the official evaluate.py on the same responses: Δ 0
    broken = CliRunner().invoke(app, ["breakdown", "--run", str(out)])
    assert "| accuracy | 100.0 | 33.3 |" in broken.output, broken.output  # camera, person
    report = CliRunner().invoke(app, ["report", str(out), "--out", str(tmp_path / "report")])
    assert report.exit_code == 0, report.output
    html = (tmp_path / "report" / "index.html").read_text()
    # the paper's main table (README docs/main_result.png): its two perspective groups over short headers
    for group, column in (("Camera-based Tasks", "Cam. Rel. Dir."), ("Person-based Tasks", "Per. Obj. Ori.")):
        assert f'<th class="group" colspan="1">{group}</th>' in html and f"<th>{column}</th>" in html
