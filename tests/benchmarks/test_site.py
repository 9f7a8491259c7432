"""SITE: the release's image and video parts and the EASI TSV load; a loopback run scores CAA officially.

The official rule (github wenqi-wang20/SITE-Bench ``eval_scripts/sitebench/utils.py``) is transcribed in
``_official_parse`` (``parse_multi_choice_response``) and ``_official_caa`` (``spatial_process_results``:
``hit − 1/n`` summed over ``1 − 1/n``, then ``spatial_aggregate_results``), pooled over both parts' results
as the authors report it; applied to the same responses they give spatialbench's per-item hits and CAA
(Δ 0). The fixture mixes 2, 3, 4 and 5 options, so CAA differs from any affine map of plain accuracy.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.site import prompt_text, site_choice
from spatialbench.cli.main import app
from support.image_tables import png, tsv_image, write_parquet, write_tsv
from support.scripted_runs import scripted_run
from support.videos import encode_indexed_video

COUNT, LOC, MOVE = (
    "counting & existence",
    "object localization & positioning",
    "movement prediction & navigation",
)
# (part, category, options, answer, response)
CASES = [
    ("image", COUNT, ["one", "two"], "B", "B"),
    ("image", COUNT, ["one", "two", "three", "four"], "C", "The answer is (C)."),
    ("image", LOC, ["left", "right", "front"], "A", "A: left"),
    ("image", LOC, ["left", "right", "front", "back", "above"], "E", "I would say D or E"),  # last: E
    ("video", MOVE, ["forward", "backward"], "A", "B"),
    ("video", MOVE, ["up", "down", "left", "right"], "D", "no idea"),  # official: a random letter
    ("video", COUNT, ["2", "3", "4"], "B", "B."),
]
HITS = [1, 1, 1, 1, 0, 0, 1]  # by hand: B; (C); "A:"; D and E, E stands last; B != A; none; "B."


def _question(k: int) -> str:
    return f"Question {k}: which option fits the scene?"


def write_release(folder: Path) -> Path:
    """``image_test/`` and ``video_test/`` Parquet tables, media files under ``images/`` and ``videos/``."""
    rows: dict[str, list[dict[str, object]]] = {"image": [], "video": []}
    for k, (part, category, options, answer, _) in enumerate(CASES):
        if part == "image":
            visual = [f"images/{k}_{j}.png" for j in range(1 + k % 2)]
            for j, path in enumerate(visual):
                (folder / path).parent.mkdir(parents=True, exist_ok=True)
                (folder / path).write_bytes(png(10 * k + j))
        else:
            visual = [f"videos/{k}.mp4"]
            (folder / "videos").mkdir(parents=True, exist_ok=True)
            encode_indexed_video(folder / visual[0], 6, 64, 64)
        rows[part].append(
            {
                "id": k,
                "question": _question(k),
                "options": options,
                "answer": answer,
                "category": category,
                "dataset": "SourceBench",
                "visual": visual,
            }
        )
    for part, table in rows.items():
        write_parquet(table, folder / f"{part}_test" / "test-00000-of-00001.parquet")
    return folder


def _official_parse(response: str, all_choices: list[str]) -> str | None:
    """``parse_multi_choice_response``, transcribed; None where the official code draws a random letter."""
    response = " " + response.strip() + " "
    candidates = [c for c in all_choices if f"({c})" in response]
    if not candidates:
        candidates = [c for c in all_choices if f" {c} " in response]
    if not candidates:
        candidates = [c for c in all_choices if f"{c}." in response]
    if not candidates:
        candidates = [
            c for c in all_choices if f"{c}:" in response or f":{c}" in response or f": {c}" in response
        ]
    if not candidates:
        return None
    if len(candidates) > 1:
        return candidates[int(np.argmax([response.rfind(f" {c} ") for c in candidates]))]
    return candidates[0]


def _official_caa(results: list[tuple[float, int]]) -> float:
    """``spatial_process_results`` + ``spatial_aggregate_results`` over (hit, n options) pairs, percent."""
    adjusted = [(hit - 1.0 / n, 1.0 - 1.0 / n) for hit, n in results]
    return 100 * sum(a for a, _ in adjusted) / sum(t for _, t in adjusted)


def _official_hits() -> list[float]:
    letters = "ABCDEFGHIJ"
    return [1.0 if _official_parse(r, list(letters[: len(o)])) == a else 0.0 for _, _, o, a, r in CASES]


def test_reader_is_the_official_function() -> None:
    texts = [c[4] for c in CASES] + ["A B", "(A) or (B)", "B: yes", "x :C", "D.", "", "  c  "]
    for text in texts:
        assert site_choice(text, ["A. x", "B. y", "C. z", "D. w"]).value == _official_parse(
            text, list("ABCD")
        )
    assert _official_hits() == HITS
    assert [float(site_choice(r, o).value == a) for _, _, o, a, r in CASES] == HITS


def test_release_and_tsv_load(tmp_path: Path) -> None:
    spec = get_benchmark("site")
    items = spec.load_items(write_release(tmp_path / "hf"))
    assert not items.errors and [i.dataset for i in items] == [c[0] for c in CASES]
    assert items[0].id == "image:0" and items[4].id == "video:4" and items[4].media[0].kind.value == "video"
    assert Path(items[1].media[1].path).read_bytes() == png(11)
    assert prompt_text(items[0]) == (
        "Question: " + _question(0) + "\nOptions:\nA: one\nB: two\n"
        "Give me the answer letter directly. The best answer is:"
    )
    assert prompt_text(items[4]).startswith(
        "Select the best answer to the following multiple-choice question "
        "based on the video. Respond with only the letter of the correct "
        "option.\nQuestion: " + _question(4)
    )
    rows = [
        {
            "index": k,
            "image": tsv_image([png(10 * k)]),
            "question": _question(k),
            "options": json.dumps(o),
            "answer": a,
            "category": c,
        }
        for k, (part, c, o, a, _) in enumerate(CASES)
        if part == "image"
    ]
    kit = spec.load_items(write_tsv(rows, tmp_path / "kit" / "SiteBenchImage.tsv"))
    assert not kit.errors
    assert [(i.question, i.options, i.ground_truth, i.task) for i in kit] == [
        (i.question, i.options, i.ground_truth, i.task) for i in items if i.dataset == "image"
    ]


@pytest.mark.slow
def test_loopback_run_scores_pooled_caa(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = write_release(tmp_path / "hf")
    responses = {_question(k): c[4] for k, c in enumerate(CASES)}
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    out = tmp_path / "run"
    script = scripted_run("site", data, out, responses)
    assert sorted(r.n_images for r in script.answered()) == [1, 1, 2, 2, 6, 6, 6]  # videos: all 6 frames
    pairs = [(hit, len(c[2])) for hit, c in zip(_official_hits(), CASES, strict=True)]
    scores = json.loads((out / "scores.json").read_text())
    # by hand: Σ(hit − 1/n) = 1/2 + 3/4 + 2/3 + 4/5 − 1/2 − 1/4 + 2/3 = 79/30;
    # Σ(1 − 1/n) = 1/2 + 3/4 + 2/3 + 4/5 + 1/2 + 3/4 + 2/3 = 139/30
    assert scores["overall"] == pytest.approx(_official_caa(pairs)) == pytest.approx(100 * 79 / 139)  # Δ 0
    count = [pairs[k] for k, c in enumerate(CASES) if c[1] == COUNT]
    assert scores[COUNT] == pytest.approx(_official_caa(count))  # both parts pooled
    assert scores[MOVE] == pytest.approx(_official_caa(pairs[4:6]))
    shutil.copytree(out, tmp_path / "run2")
    compared = CliRunner().invoke(app, ["compare", str(out), str(tmp_path / "run2")])
    assert compared.exit_code == 0, compared.output
    # CAA again, from the option counts read back from items.csv
    assert "| 56.8 | 100.0 | 100.0 | -60.0 |" in compared.output, compared.output
    image = CliRunner().invoke(app, ["breakdown", "--run", str(out)])
    assert image.exit_code == 0, image.output
    assert "| accuracy | 100.0 | 33.3 |" in image.output, image.output  # per part: image 4/4, video 1/3
    report = CliRunner().invoke(app, ["report", str(out), "--out", str(tmp_path / "report")])
    assert report.exit_code == 0, report.output
    html = (tmp_path / "report" / "index.html").read_text()
    assert f"<th>{COUNT}</th>".replace("&", "&amp;") in html and "Avg. (CAA, pooled)" in html


def test_each_part_has_its_own_caa_and_intervals_resample_it(tmp_path: Path) -> None:
    from spatialbench.scoring.scorer import score_items
    from spatialbench.scoring.uncertainty import Resampler, table_draws

    spec = get_benchmark("site")
    items = spec.load_items(write_release(tmp_path))
    result = score_items(items, {i.id: c[4] for i, c in zip(items, CASES, strict=True)}, spec.scoring)
    pairs = [(hit, len(c[2])) for hit, c in zip(HITS, CASES, strict=True)]
    assert result.by_dataset["image"].average == pytest.approx(_official_caa(pairs[:4]))
    assert result.by_dataset["video"].average == pytest.approx(_official_caa(pairs[4:]))
    assert result.table.cell(COUNT).chance is None  # CAA's chance level is 0, no random-guess row
    # a resample that draws every question once is the estimate itself (the weighted ratio, not a mean)
    draws = table_draws(result.table, Resampler.of([f"item:{i.id}" for i in items], resamples=3))
    assert draws["overall"] is not None and draws["overall"][0] == pytest.approx(_official_caa(pairs))


def test_image_markers_place_the_images() -> None:
    """EASI's ``build_msgs``: the text split at ``<image>``, pieces stripped, each marker the next image."""
    from types import SimpleNamespace

    from spatialbench.benchmarks.site import SiteBuilder
    from spatialbench.prompting.config import PromptConfig
    from spatialbench.records.item import AnswerKind, Item
    from spatialbench.records.messages import ImagePart, TextPart

    item = Item(
        id="image:9",
        benchmark="site",
        task=COUNT,
        question="Left: <image> right: <image> which?",
        options=("A. left", "B. right"),
        ground_truth="A",
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        dataset="image",
    )
    pixels = [np.full((2, 2, 3), k, np.uint8) for k in range(2)]
    request = SiteBuilder(PromptConfig()).build(item, [SimpleNamespace(pixels=(p,)) for p in pixels])
    kinds = [type(p).__name__ for p in request.parts]
    assert kinds == ["TextPart", "ImagePart", "TextPart", "ImagePart", "TextPart"]
    assert isinstance(request.parts[0], TextPart) and request.parts[0].text == "Question: Left:"
    assert isinstance(request.parts[3], ImagePart) and int(request.parts[3].pixels[0, 0, 0]) == 1
    blind = SiteBuilder(PromptConfig(blind=True)).build(item, [])
    assert all(isinstance(p, TextPart) for p in blind.parts)


def test_rows_without_option_counts_get_plain_accuracy(tmp_path: Path) -> None:
    """Rows read back from items.csv (the browser UI) carry no ``n_options``: no CAA, said in the title."""
    from spatialbench.benchmarks.site import site_table
    from spatialbench.scoring.scorer import score_items

    spec = get_benchmark("site")
    items = spec.load_items(write_release(tmp_path))
    rows = score_items(items, {i.id: c[4] for i, c in zip(items, CASES, strict=True)}, spec.scoring).rows
    table = site_table(rows.drop(columns="n_options"))
    assert "no CAA" in table.title and table.average == pytest.approx(100 * 5 / 7)
