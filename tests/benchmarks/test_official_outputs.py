"""Δ 0 against the official scoring code's own output (issue 24 "Must show").

The other benchmark tests write the official rules again; here the numbers are what the official code printed
when it was run once, outside this repository, on the same fixtures and responses (each benchmark's
``CASES`` in its test module): the file and commit are named at each constant. The code was run as published,
with only what it needs from outside the scorer replaced (a model call by the scripted response, a
dataset download by the fixture rows); no LLM judge. spatialbench then scores the same responses with its
default extraction and must give the same per-item scores and table.

Where spatialbench is right and the peer is wrong (VSI-SUPER-Recall in lmms-eval), the peer's output is
recorded too and the difference asserted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import test_blink
import test_cvbench
import test_embspatial
import test_mindcube
import test_mmsi_bench
import test_revsi
import test_site
import test_threedsr
import test_viewspatial
import test_vsi_super

from spatialbench.benchmarks import get_benchmark
from spatialbench.scoring.scorer import ScoreResult, score_items
from support.image_tables import write_tsv


def _score(name: str, data: Path, markers: list[tuple[str, str]], **options: str) -> tuple[list, ScoreResult]:
    """Score each marker's response on the item whose question (or id) holds the marker; in marker order."""
    spec = get_benchmark(name)
    items = list(spec.load_items(data, **options))
    owner = {m: next(i for i in items if m in i.question or m == i.id) for m, _ in markers}
    result = score_items(items, {owner[m].id: response for m, response in markers}, spec.scoring)
    by_id = result.rows.set_index("id")["score"]
    return [float(by_id[owner[m].id]) for m, _ in markers], result


# InternRobotics/MMSI-Bench vlmeval/dataset/mmsi_bench.py @ 5de2f3d2eb0159dbcc76790074029aa400143603,
# MMSIBenchDataset.evaluate: score [1, 1, 0, 1, 0, 1], overall 0.6667, categories Pos. 1.0, Attr. 0.3333,
# MSR 1.0
MMSI = ([1, 1, 0, 1, 0, 1], 200 / 3,
        {test_mmsi_bench.POS: 100.0, test_mmsi_bench.ATTR: 100 / 3, "MSR": 100.0})


def test_mmsi_bench_is_the_official_evaluate(tmp_path: Path) -> None:
    markers = [(test_mmsi_bench._question(k), c[3]) for k, c in enumerate(test_mmsi_bench.CASES)]
    scores, result = _score("mmsi-bench", test_mmsi_bench._write_both(tmp_path)[0], markers)
    assert scores == MMSI[0] and result.table.average == pytest.approx(MMSI[1])
    assert result.table.scores == pytest.approx(MMSI[2])


# mll-lab-nu/MindCube src/evaluation/evaluator.py BasicEvaluator.evaluate
# @ 6d8fd9acdf5b80769373a21cdbfcf068ab356e0f:
# gen_cogmap_accuracy 4/6 (translation 1/1 left out); around 1/2, rotation 1/2, among 2/2. Its extract_answer
# (src/evaluation/core/extractors.py) read the responses and test_mindcube.MORE as below. Translation is not a
# column of the table (the breakdown has it); its item's score is in the per-item list.
MINDCUBE_READ = ["A", "E", "C", "D", "B", None, "C",
                 "B", "C", "D", "E", "A", "C", "B", "A", None, None, "B", "E"]
MINDCUBE = ([1, 0, 1, 1, 1, 0, 1], 400 / 6, {"rotation": 50.0, "among": 100.0, "around": 50.0})


def test_mindcube_is_the_official_evaluator(tmp_path: Path) -> None:
    texts = [c[3] for c in test_mindcube.CASES] + test_mindcube.MORE
    choice = get_benchmark("mindcube").scoring.extractors().choice
    assert [choice(t).value for t in texts] == MINDCUBE_READ
    markers = [(test_mindcube._question(k), c[3]) for k, c in enumerate(test_mindcube.CASES)]
    scores, result = _score("mindcube", test_mindcube.write_tsv_release(tmp_path), markers, subset="tiny")
    assert scores == MINDCUBE[0] and result.table.average == pytest.approx(MINDCUBE[1])
    assert {k: result.table.scores[k] for k in MINDCUBE[2]} == pytest.approx(MINDCUBE[2])


# ZJU-REAL/ViewSpatial-Bench evaluate.py @ 2e85a5e41a29e7919b1d326d8aba316661579983, evaluate_vlm
# (get_output answering the scripted responses): IsCorrect T F T T F F; Camera ... Relative Direction 2/3,
# Person ... Object View Orientation 1/3, overall 50.00 %. Reproduced by ``--extract official``; the
# default differs on the article ("a chair ..., so C" is C, the official code reads A).
VIEWSPATIAL = ([1, 0, 1, 1, 0, 0], 50.0, {test_viewspatial.CAM: 200 / 3, test_viewspatial.PER: 100 / 3})


def test_viewspatial_official_mode_is_evaluate_vlm(tmp_path: Path) -> None:
    spec = get_benchmark("viewspatial")
    items = list(spec.load_items(test_viewspatial.write_release(tmp_path)))
    responses = {i.id: c[2] for i, c in zip(items, test_viewspatial.CASES, strict=True)}
    result = score_items(items, responses, spec.scoring, extract="official")
    assert result.rows.set_index("id").loc[[i.id for i in items], "score"].tolist() == VIEWSPATIAL[0]
    assert result.table.average == pytest.approx(VIEWSPATIAL[1])
    assert result.table.scores == pytest.approx(VIEWSPATIAL[2])
    default = score_items(items, responses, spec.scoring)
    assert default.table.average == pytest.approx(100 * 4 / 6)  # the article case read right


# wenqi-wang20/SITE-Bench eval_scripts/sitebench/utils.py @ 36295bbf129cb5f2b3c3c51f61011b93162c5e2b,
# spatial_process_results + spatial_aggregate_results: accuracy 1 1 1 1 0 r 1, where r (no candidate letter in
# "no idea") is a random letter (unseeded), right in 95 of 400 seeds. With r missing (random.seed(1)): CAA
# pooled 56.83453, image part 100.0, video part -4.34783; with r right (seed 0): 78.41727, 100.0, 47.82609.
# spatialbench scores r 0 (no answer), so it is the official output whenever the random letter misses.
SITE = ([1, 1, 1, 1, 0, 0, 1], 56.83453, {"image": 100.0, "video": -4.34783})


def test_site_is_the_official_caa_when_the_random_letter_misses(tmp_path: Path) -> None:
    markers = [(test_site._question(k), c[4]) for k, c in enumerate(test_site.CASES)]
    scores, result = _score("site", test_site.write_release(tmp_path), markers)
    assert scores == SITE[0] and result.table.average == pytest.approx(SITE[1], abs=1e-5)
    assert {part: result.by_dataset[part].average for part in SITE[2]} == pytest.approx(SITE[2], abs=1e-5)


# zeyofu/BLINK_Benchmark eval/evaluate.py @ 2d6a779be4aa1ad0d38d7aa539bcb43b6dd81592, eval_prediction over the
# fixture's three subtasks, fed the letters read here as "(X)" (its GPT-3.5 matcher, multiple_choice.py, not
# run): Relative_Depth 0.6667, Jigsaw 1.0, Multi-view_Reasoning 0.5, Total 0.7222
BLINK = ([1, 0, 1, 1, 1, 0], 100 * 0.7222222222222222,
         {"Relative_Depth": 200 / 3, "Jigsaw": 100.0, "Multi-view_Reasoning": 50.0})


def test_blink_is_the_official_eval_prediction(tmp_path: Path) -> None:
    markers = [(f"Question {k}:", c[4]) for k, c in enumerate(test_blink.CASES)]
    scores, result = _score("blink", test_blink.write_release(tmp_path), markers)
    assert scores == BLINK[0] and result.table.average == pytest.approx(BLINK[1])
    present = {key: value for key, value in result.table.scores.items() if value is not None}
    assert present == pytest.approx(BLINK[2]) and len(result.table.missing) == 14 - 3  # the others: "-"


# open-compass/VLMEvalKit vlmeval/dataset/image_mcq.py @ e8e78f05f3080fe28154f2130321f17951c3be94,
# _3DSRBench.evaluate (exact matching): hit 1 1 1 1 0 0 1 0 1 1 1; vanilla 0.7273, flip_eval 0.6667,
# circ_eval 0.6, flip_circ_eval 0.5 (height_higher 1.0, location_above 0.0, multi_object_facing 1.0,
# orientation_on_the_left 0.0)
THREEDSR = ([1, 1, 1, 1, 0, 0, 1, 0, 1, 1, 1], 50.0,
            {"height": 100.0, "location": 0.0, "orientation": 0.0, "multi_object": 100.0})


def test_threedsr_is_the_kit_evaluate(tmp_path: Path) -> None:
    data = write_tsv(test_threedsr._kit_rows(), tmp_path / "3dsrbench_v1_vlmevalkit_circular.tsv")
    markers = [(qid, response) for qid, _, _, _, response in test_threedsr.ROWS]
    scores, result = _score("3dsrbench", data, markers)
    assert scores == THREEDSR[0] and result.table.average == pytest.approx(THREEDSR[1])
    assert result.table.scores == pytest.approx(THREEDSR[2])


# open-compass/VLMEvalKit vlmeval/dataset/embspatialbench.py @ e8e78f05f3080fe28154f2130321f17951c3be94,
# EmbSpatialBench.evaluate (rule-based can_match_option): hit 1 0 1 1 0 1 1; overall 71.42857,
# mp3d 66.66667, ai2thor 50.0, scannet 100.0 (the authors released no scorer)
EMBSPATIAL = ([1, 0, 1, 1, 0, 1, 1], 500 / 7, {"mp3d": 200 / 3, "ai2thor": 50.0, "scannet": 100.0})


def test_embspatial_is_the_kit_evaluate(tmp_path: Path) -> None:
    markers = [(test_embspatial._question(k), c[3]) for k, c in enumerate(test_embspatial.CASES)]
    scores, result = _score("embspatial", test_embspatial.write_release(tmp_path), markers)
    assert scores == EMBSPATIAL[0] and result.table.average == pytest.approx(EMBSPATIAL[1])
    assert result.table.scores == pytest.approx(EMBSPATIAL[2])


# open-compass/VLMEvalKit vlmeval/dataset/image_mcq.py @ e8e78f05f3080fe28154f2130321f17951c3be94,
# CVBench.evaluate (exact matching) on the 2D and 3D parts apart, as the kit scores them: 2D hits 1 0 1,
# ADE20K 0.5, COCO 1.0, Overall 0.75 (mean of the sources); 3D hits 1 0 0 0, Overall 0.25. The card's
# combination (½(2D + 3D), no code published) is then 50.0.
CVBENCH = ([1, 0, 1, 1, 0, 0, 0], 50.0, {"2D": 75.0, "3D": 25.0})


def test_cvbench_is_the_kit_evaluate(tmp_path: Path) -> None:
    markers = [(f"Question {k}?", c[4]) for k, c in enumerate(test_cvbench.CASES)]
    scores, result = _score("cvbench", test_cvbench.write_release(tmp_path), markers)
    assert scores == CVBENCH[0] and result.table.average == pytest.approx(CVBENCH[1])
    assert result.table.scores == pytest.approx(CVBENCH[2])


# EvolvingLMMs-Lab/lmms-eval lmms_eval/tasks/vsisuper/count/vsc_utils.py @
# 75571cfe0fa36ca5ec2e6aa2bb268f9d38295af3, process_results: mra 1.0, 0.6, 0.1 (Cambrian-S code not readable)
VSC = [1.0, 0.6, 0.1]
# ... recall/vsr_utils.py, same commit: accuracy 0, 1, 0, 0 — the first A-D of the upper-cased text reads
# "The answer is B." as A and "Answer: (D)" as A (the peer bug); spatialbench reads B and D: 1, 1, 0, 1
VSR_PEER, VSR = [0.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 1.0]


def test_vsi_super_count_is_lmms_eval_and_recall_is_right_where_it_is_wrong(tmp_path: Path) -> None:
    count = [(f"question {k}:", c[2]) for k, c in enumerate(test_vsi_super.COUNT)]
    scores, _ = _score("vsi-super-count", test_vsi_super.count_release(tmp_path / "c"), count)
    assert scores == pytest.approx(VSC)
    recall = [(f"question {k}:", c[2]) for k, c in enumerate(test_vsi_super.RECALL)]
    scores, _ = _score("vsi-super-recall", test_vsi_super.recall_release(tmp_path / "r"), recall)
    assert scores == VSR and scores != VSR_PEER


# open-compass/VLMEvalKit vlmeval/dataset/revsi.py @ e8e78f05f3080fe28154f2130321f17951c3be94, ReVSI.evaluate:
# budget 16: accuracy .4 1 .4 0 1 1 0 1, overall_accuracy 0.516667; all: 1 1 .4 0 1 0 0 1, overall 0.483333
REVSI = {"16": ([0.4, 1.0, 0.4, 0.0, 1.0, 1.0, 0.0, 1.0], 51.6667),
         "all": ([1.0, 1.0, 0.4, 0.0, 1.0, 0.0, 0.0, 1.0], 48.3333)}


@pytest.mark.parametrize("budget", ["16", "all"])
def test_revsi_is_the_kit_evaluate(tmp_path: Path, budget: str) -> None:
    markers = [(test_revsi._question(k), c[5]) for k, c in enumerate(test_revsi.CASES)]
    scores, result = _score("revsi", test_revsi.write_release(tmp_path), markers, budget=budget)
    assert scores == pytest.approx(REVSI[budget][0])
    assert result.table.average == pytest.approx(REVSI[budget][1], abs=1e-4)
