"""Scoring: answer extraction, metrics (accuracy, MRA), aggregation into tables, reports, baselines.

Public names are imported from their modules (nothing here runs at import time beyond definitions).
"""

from spatialbench.scoring.extraction import (
    CHOICE_EXTRACTORS,
    NUMBER_EXTRACTORS,
    Extraction,
    extract_choice,
    extract_number,
)
from spatialbench.scoring.metrics import (
    MRA_MODES,
    exact_match,
    ground_truth_error,
    mean_relative_accuracy,
    mra_array,
)
from spatialbench.scoring.output import render_markdown, scores_json, write_scores
from spatialbench.scoring.scorer import ScoreResult, score_items
from spatialbench.scoring.tables import Column, ScoreTable, build_table

__all__ = [
    "CHOICE_EXTRACTORS",
    "MRA_MODES",
    "NUMBER_EXTRACTORS",
    "Column",
    "Extraction",
    "ScoreResult",
    "ScoreTable",
    "build_table",
    "exact_match",
    "extract_choice",
    "extract_number",
    "ground_truth_error",
    "mean_relative_accuracy",
    "mra_array",
    "render_markdown",
    "score_items",
    "scores_json",
    "write_scores",
]
