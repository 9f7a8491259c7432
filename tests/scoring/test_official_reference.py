"""Official-mode scores of the real Gemini 3 Flash responses (291 official questions, 5 ScanNet scenes).

Expected values: lmms-eval's own vsibench code (0.6.1 and 0.7.3 agree) run on the same rows by
bench/lmms_eval_crosscheck.py, as fractions × 100.
"""

import pytest

from spatialbench.benchmarks.vsibench import SPEC, load_vsibench
from spatialbench.scoring.predictions import read_predictions
from spatialbench.scoring.scorer import score_items
from support.shared_data import require_file

LMMS_EVAL = {
    "object_counting": 43.3333333333, "object_abs_distance": 20.8823529412,
    "object_size_estimation": 63.5135135135, "room_size_estimation": 72.0, "object_rel_distance": 37.5,
    "object_rel_direction": 45.7568438003, "route_planning": 25.0, "obj_appearance_order": 27.8481012658,
}
OVERALL = 41.9792681068


def test_official_mode_matches_lmms_eval(shared_data):
    root = require_file(shared_data / "vsibench" / "official_samples" / "gemini3flash_5scenes")
    items = load_vsibench(root / "questions")
    responses = read_predictions(root / "responses", items).responses
    result = score_items(items, responses, SPEC.scoring, extract="official")
    for key, value in LMMS_EVAL.items():
        assert result.table.scores[key] == pytest.approx(value, abs=1e-9)
    assert result.table.average == pytest.approx(OVERALL, abs=1e-9)
    assert result.no_answer == 0 and result.data_errors == []
