"""Scoring: answer extraction, metrics (accuracy, MRA), the grouped-table combinator, reports, baselines.

Scoring knows no benchmark: callers pass a benchmark's :class:`ScoringRules` (``BenchmarkSpec.scoring``).
Public names are imported from their modules (nothing here runs at import time beyond definitions).
"""

from spatialbench.scoring.extraction import (
    CHOICE_EXTRACTORS,
    NUMBER_EXTRACTORS,
    Extraction,
    extract_choice,
    extract_number,
)
from spatialbench.scoring.grouped import Cell, Group, Table, grouped, with_items
from spatialbench.scoring.metrics import (
    MRA_MODES,
    exact_match,
    ground_truth_error,
    mean_relative_accuracy,
    mra_array,
)
from spatialbench.scoring.output import render_markdown, scores_json, write_scores
from spatialbench.scoring.rules import PER_TASK, STANDARD_MODES, Extractors, ScoringRules
from spatialbench.scoring.scorer import ScoreResult, score_items

__all__ = [
    "CHOICE_EXTRACTORS",
    "MRA_MODES",
    "NUMBER_EXTRACTORS",
    "PER_TASK",
    "STANDARD_MODES",
    "Cell",
    "Extraction",
    "Extractors",
    "Group",
    "ScoreResult",
    "ScoringRules",
    "Table",
    "exact_match",
    "extract_choice",
    "extract_number",
    "grouped",
    "ground_truth_error",
    "mean_relative_accuracy",
    "mra_array",
    "render_markdown",
    "score_items",
    "scores_json",
    "with_items",
    "write_scores",
]
