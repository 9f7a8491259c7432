"""ReMindView-Bench Table 1 and Figs. 5–6 breakdowns on the fixture, checked against hand computations.

Fixture (tests/benchmarks/fixtures/remindview; oc = object_centric_qa.csv, vc = view_centric_qa.parquet):

    item relation       kind  persp. CF   objs level choices  phase-(4) answer     read (phases mode)
    oc:0 view-view      dis   -      CF   5    2     3        B.frame2             right
    oc:1 view-view      dir   -      CF   5    2     3        A.go opposite        wrong
    oc:2 view-object    dis   SP     NCF  5    2     4        "lamp" (text)        right
    oc:3 view-object    dir   PC     CF   7    4     4        B. left              right
    oc:4 object-object  dis   SP     NCF  7    4     2        no phases, "answer is B"  right (fallback)
    oc:5 object-object  dir   PC*    CF   3    4     4        no phase (4), unsure no answer
    oc:6 object-object  dir   SP*    NCF  3    2     3        C.chair              wrong
    vc:0 view-object    dir   SP     CF   4    5     4        B.back               right
    vc:1 view-object    dis   PC     CF   4    5     3        A.oven               right
    vc:2 object-object  dir   SP     NCF  6    1     4        D.back-right         wrong
    vc:3 object-object  dis   SP     NCF  6    1     2        A.chair              right
    (* perspective derived from the template text: the query_type has no perspective tag)

Random choice: 1/3 x4 (oc:0, oc:1, oc:6, vc:1) + 1/4 x5 + 1/2 x2 = 43/12 over 11 queries = 32.58 %.
"""

import pytest
from mmsi_remindview_fixtures import build_remindview, remindview_responses

from spatialbench.benchmarks.remindview import SPEC, load_remindview, remindview_breakdowns
from spatialbench.scoring import score_items
from spatialbench.scoring.baselines import BASELINES, chance_accuracy


@pytest.fixture(scope="module")
def items(tmp_path_factory):
    return load_remindview(build_remindview(tmp_path_factory.mktemp("rmv") / "data"))


@pytest.fixture(scope="module")
def tables(items):
    result = score_items(items, remindview_responses(), SPEC.scoring)  # default mode: phases
    return {t.title: t for t in remindview_breakdowns(items, result.rows)}


def _row(table, what="accuracy"):
    return {c.group: round(getattr(c, what), 2) for c in table.cells}


def test_overall_and_per_pattern(tables):
    overall = tables["ReMindView-Bench overall (Table 1)"]
    # 7/11 right; object-centric oc:0, 2, 3, 4 = 4/7; view-centric vc:0, 1, 3 = 3/4
    assert _row(overall) == {"Avg.": 63.64, "Object-centric": 57.14, "View-centric": 75.0}
    # 43/12/11; object-centric (1/3+1/3+1/4+1/4+1/2+1/4+1/3)/7 = 2.25/7; view-centric (1/4+1/3+1/4+1/2)/4
    assert _row(overall, "chance") == {"Avg.": 32.58, "Object-centric": 32.14, "View-centric": 33.33}
    assert overall.cell("Avg.").failures == 1  # oc:5


def test_object_centric_columns(tables):
    table = tables["ReMindView-Bench Object-centric (Table 1)"]
    assert _row(table) == {
        "Avg.": 57.14,
        "V–V": 50.0,  # oc:0 right, oc:1 wrong
        "V–O": 100.0,  # oc:2, oc:3
        "O–O": 33.33,  # oc:4 right; oc:5, oc:6 not
        "Dir.": 25.0,  # oc:1, 3, 5, 6 -> only oc:3
        "Dis.": 100.0,  # oc:0, 2, 4
        "SP": 66.67,  # oc:2, oc:4 right, oc:6 wrong (view-view has no perspective class)
        "PC": 50.0,  # oc:3 right, oc:5 no answer
        "CF": 50.0,  # oc:0, 1, 3, 5 -> oc:0, oc:3
        "NCF": 66.67,  # oc:2, 4, 6 -> oc:2, oc:4
    }
    assert _row(table, "chance")["O–O"] == 36.11  # (1/2 + 1/4 + 1/3) / 3


def test_view_centric_has_no_view_view_column(tables):
    table = tables["ReMindView-Bench View-centric (Table 1)"]
    assert _row(table) == {
        "Avg.": 75.0,
        "V–O": 100.0,
        "O–O": 50.0,
        "Dir.": 50.0,
        "Dis.": 100.0,
        "SP": 66.67,
        "PC": 100.0,
        "CF": 100.0,
        "NCF": 50.0,
    }


def test_accuracy_by_object_count_and_distance_level(tables):
    by_objects = tables["ReMindView-Bench accuracy by number of objects (Fig. 5)"]
    # 3: oc:5, oc:6 -> 0/2; 4: vc:0, vc:1 -> 2/2; 5: oc:0-2 -> 2/3; 6: vc:2, vc:3 -> 1/2; 7: oc:3, oc:4 -> 2/2
    assert _row(by_objects) == {"3": 0.0, "4": 100.0, "5": 66.67, "6": 50.0, "7": 100.0}
    by_level = tables["ReMindView-Bench accuracy by distance level (Fig. 6)"]
    # level 1: vc:2, vc:3 -> 1/2; 2: oc:0, 1, 2, 6 -> 2/4; 4: oc:3, 4, 5 -> 2/3; 5: vc:0, vc:1 -> 2/2
    assert _row(by_level) == {"1": 50.0, "2": 50.0, "4": 66.67, "5": 100.0}


def test_random_choice_baseline_of_the_fixture(items):
    assert chance_accuracy(items) == pytest.approx(100 * (4 / 3 + 5 / 4 + 2 / 2) / 11)  # 32.58


def test_registered_table_and_official_reader(items):
    phases = score_items(items, remindview_responses(), SPEC.scoring)
    assert phases.extract == "phases" and phases.table.average == pytest.approx(100 * 7 / 11)
    assert phases.table.scores["V–V"] == 50.0 and phases.table.scores["O–O"] == pytest.approx(40.0)  # 2/5
    official = score_items(items, remindview_responses(), SPEC.scoring, extract="official")
    # the official reader needs a letter: oc:2 ("lamp") and oc:5 fail -> 6/11
    assert official.table.average == pytest.approx(100 * 6 / 11) and official.no_answer == 2


def test_chance_random_baseline_model(items):
    result = BASELINES.get("chance-random")(items, SPEC.scoring)
    assert result.table.average == pytest.approx(100 * (4 / 3 + 5 / 4 + 2 / 2) / 11)  # 32.58
