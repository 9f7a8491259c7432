"""MMSI-Video-Bench tables on the fixture, checked against hand computations.

Fixture responses (tests/benchmarks/fixtures/mmsi_video/responses.json) and what each mode reads:

    id   subtype       gt  response                               robust        official
    0000 Attr.         A   "A"                                    A ok          A ok
    0001 Inst.-Inst.   B   "The answer is B."                     B ok          B ok
    0002 Inst.-Scen.   C   "(C)"                                  C ok          fail
    0003 Scen.-Scen.   D   "answer: d"                            D ok          fail
    0004 Cam.-Inst.    E   "B could fit ... so the answer is (E)" E ok          fail
    0005 Cam.-Scen.    A   "My answer is B. Final answer: A"      A ok          B wrong
    0006 Cam.          B   "\\boxed{B}"                           B ok          B ok
    0007 Inst.         C   '{"answer": "A", ...}'                 A wrong       A wrong
    0008 Inter.        A   "Answer: A"                            A ok          A ok
    0009 MU.           B   "C. The book moved."                   C wrong       C wrong
    0010 MV.           F   "F"                                    F ok          F ok
    0011 Plan.         C   "I cannot tell."                       fail          fail
    0012 Pred.         D   "no answer"                            fail          fail
    0013 Pred.         D   "D"                                    D ok          D ok

Options per question: 4,4,5,4,6,4,4,4,5,4,6,4,5,4, so random guess = (9/4 + 3/5 + 2/6) / 14 = 22.738 %.
"""

import pytest
from mmsi_remindview_fixtures import MMSI_FIXTURE, build_mmsi, mmsi_responses

from spatialbench.benchmarks.mmsi_video import SPEC, load_mmsi_video, mmsi_video_breakdowns
from spatialbench.benchmarks.mmsi_video.breakdown import load_id_lists
from spatialbench.scoring import score_items
from spatialbench.scoring.baselines import BASELINES, chance_accuracy


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    return build_mmsi(tmp_path_factory.mktemp("mmsi") / "data")


@pytest.fixture(scope="module")
def items(data_dir):
    return load_mmsi_video(data_dir)


def _scored(items, mode):
    return score_items(items, mmsi_responses(), SPEC.scoring, extract=mode)


def _row(table, what="accuracy"):
    return {
        c.group: (round(getattr(c, what), 2) if isinstance(getattr(c, what), float) else getattr(c, what))
        for c in table.cells
    }


def test_table2_subtypes_in_paper_order_robust(items, data_dir):
    result = _scored(items, "robust")
    table2 = mmsi_video_breakdowns(items, result.rows, data_dir=data_dir)[0]
    assert [c.group for c in table2.cells] == [
        "Attr.",
        "Inst.-Inst.",
        "Inst.-Scen.",
        "Scen.-Scen.",
        "Cam.-Inst.",
        "Cam.-Scen.",
        "Cam.",
        "Inst.",
        "Inter.",
        "MU.",
        "MV.",
        "Plan.",
        "Pred.",
        "Avg.",
    ]
    assert list(_row(table2).values()) == [
        100,
        100,
        100,
        100,
        100,
        100,
        100,
        0,
        100,
        0,
        100,
        0,
        50,
        71.43,
    ]  # 10/14
    # random guess per subtype: 1/4, 1/4, 1/5, 1/4, 1/6, 1/4, 1/4, 1/4, 1/5, 1/4, 1/6, 1/4, (1/5 + 1/4) / 2
    assert list(_row(table2, "chance").values()) == [
        25.0,
        25.0,
        20.0,
        25.0,
        16.67,
        25.0,
        25.0,
        25.0,
        20.0,
        25.0,
        16.67,
        25.0,
        22.5,
        22.74,
    ]
    # 0011, 0012 (robust reads 0007's JSON answer since the issue-6 follow-up, as the official extractor does)
    assert table2.cell("Avg.").failures == 2
    assert result.table.average == pytest.approx(100 * 10 / 14)  # the registered table is question-weighted


def test_table3_categories_are_question_weighted(items, data_dir):
    robust = mmsi_video_breakdowns(items, _scored(items, "robust").rows, data_dir=data_dir)[1]
    # SC 0000-0005: 6/6; MU 0006-0008: 2/3; Plan.&Pred. 0011-0013: 1/3; CV 0009-0010: 1/2
    assert _row(robust) == {"Avg.": 71.43, "SC.": 100.0, "MU.": 66.67, "Plan.&Pred.": 33.33, "CV.": 50.0}
    official = mmsi_video_breakdowns(items, _scored(items, "official").rows, data_dir=data_dir)[1]
    # official: 0000, 0001, 0006, 0008, 0010, 0013 right -> SC 2/6, MU 2/3, P&P 1/3, CV 1/2, Avg 6/14
    assert _row(official) == {"Avg.": 42.86, "SC.": 33.33, "MU.": 66.67, "Plan.&Pred.": 33.33, "CV.": 50.0}
    assert _row(official, "failures") == {"Avg.": 5, "SC.": 3, "MU.": 0, "Plan.&Pred.": 2, "CV.": 0}


def test_difficulty_levels_from_the_id_list(items, data_dir):
    table = mmsi_video_breakdowns(items, _scored(items, "robust").rows, data_dir=data_dir)[2]
    # level_1 = Hard {0002,0003,0004,0007,0011}: 3/5; level_2 = Medium {0005,0009,0012,0013}: 2/4;
    # level_3 = Easy {0000,0001,0006,0008,0010}: 5/5
    assert _row(table) == {"Hard": 60.0, "Medium": 50.0, "Easy": 100.0}


@pytest.mark.parametrize(
    ("sub_bench", "expected"),
    [
        # Static-CC {0004, 0005} 2/2, Static-IC {0000, 0001, 0002} 3/3, Dynamic {0009} 0/1 -> Avg 5/6
        ("indoor", {"Avg.": 83.33, "Static-CC.": 100.0, "Static-IC.": 100.0, "Dynamic": 0.0}),
        # Manipulation {0007, 0008} 1/2, Navigation {0011, 0006} 1/2
        ("robot", {"Avg.": 50.0, "Man.": 50.0, "Nav.": 50.0}),
        # Target Grounding {0001, 0003, 0004} 3/3, Time Localization {0006, 0012} 1/2 -> Avg 4/5
        ("grounding", {"Avg.": 80.0, "TG.": 100.0, "TL.": 50.0}),
    ],
)
def test_sub_benchmarks(items, data_dir, sub_bench, expected):
    rows = _scored(items, "robust").rows
    (table,) = SPEC.breakdown_tables(items, rows, data_dir=data_dir, sub_bench=sub_bench)
    assert _row(table) == expected


def test_unknown_sub_benchmark_and_missing_id_lists(items, tmp_path):
    rows = _scored(items, "robust").rows
    with pytest.raises(KeyError, match="known: indoor, robot, grounding, difficulty"):
        mmsi_video_breakdowns(items, rows, data_dir=MMSI_FIXTURE, sub_bench="outdoor")
    with pytest.raises(FileNotFoundError, match="robot_bench.json not found"):
        mmsi_video_breakdowns(items, rows, data_dir=tmp_path, sub_bench="robot")


def test_random_guess_baseline_of_the_fixture(items):
    assert chance_accuracy(items) == pytest.approx(100 * (9 / 4 + 3 / 5 + 2 / 6) / 14)  # 22.738


def test_official_id_lists_match_the_paper(shared_data):
    meta = shared_data / "mmsi_video" / "meta_data"  # a missing file fails loudly in load_id_lists
    sizes = {
        name: {k: len(v) for k, v in load_id_lists(meta, name).items()}
        for name in ("indoor", "robot", "grounding", "difficulty")
    }
    assert sum(sizes["indoor"].values()) == 523  # Sec. 8
    assert sum(sizes["robot"].values()) == 204
    assert sum(sizes["grounding"].values()) == 335
    assert sizes["difficulty"] == {"level_1": 327, "level_2": 400, "level_3": 379}
    # level_1 is Hard: O4-mini (Sufficient-Coverage), Table 3: Hard 16.2, Medium 30.0, Easy 56.7, Avg 35.1
    hard, medium, easy = 53 / 327, 120 / 400, 215 / 379
    assert [round(100 * x, 1) for x in (hard, medium, easy)] == [16.2, 30.0, 56.7]
    assert round(100 * (53 + 120 + 215) / 1106, 1) == 35.1
    # the reverse order (327 = Easy) cannot give Easy 56.7: 185/327 = 56.6, 186/327 = 56.9
    assert 56.7 not in {round(100 * k / 327, 1) for k in range(328)}


def test_chance_random_baseline_model_scores_the_mean_inverse_option_count(items):
    result = BASELINES.get("chance-random")(items, SPEC.scoring)
    assert result.table.average == pytest.approx(100 * (9 / 4 + 3 / 5 + 2 / 6) / 14)  # 22.74 (paper: 24.1)
    assert result.table.scores[
        "(Spatial Construction) Camera-Instance Spatial Relationship"
    ] == pytest.approx(100 / 6)
