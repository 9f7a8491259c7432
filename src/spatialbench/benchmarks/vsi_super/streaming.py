"""VSI-SUPER-Count streaming: one response holds a count per query time; every expected count is scored.

:func:`score_streaming` is ``vsi-super-count-streaming``'s ``ScoringRules.score_response``: the item's
ground truth is the expected counts as JSON text, the value shown the counts read (JSON text).

Cambrian-S (arXiv 2511.04670, Sec. 3, VSI-SUPER-Count) asks for the running object count at several query
times of one long video and reports MRA. Each expected answer is scored against the count given for the
same query time, and a query the response gives no count for scores 0: the item's score is the mean over
*all* expected answers. lmms-eval's ``vsi_super_count`` averages over ``zip(predictions, answers)``, which
stops at the shorter list, so ``"[3]"`` against ``[3, 5, 8, 12]`` scores 1.0 there (0.25 here). Counts past
the last query time are ignored, as the official ``cambrians_vsc_streaming`` ``process_results`` (its ``zip``)
ignores them: ``"[3, 5, 8, 12, 99]"`` scores 1.0 — a count after the last query time answers no question.

The request is lmms-eval's ``vsc_streaming_utils.doc_to_text`` (commit 75571cf): no query times in it.
There the ``query_times`` column is read by the Cambrian-S streaming model, which answers at each query
frame; one request per question, as here, keeps that text (the one the published numbers were measured with).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import numpy as np

from spatialbench.records.item import Item
from spatialbench.scoring.extraction import NO_ANSWER
from spatialbench.scoring.metrics import mra_array

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_BRACKETS = re.compile(r"\[([^\[\]]*)\]")


def read_counts(text: str | None) -> list[float]:
    """Return the counts of a streaming response, in order (never raises; ``[]`` when there are none).

    The last ``[...]`` list of the text when it has one (a model may reason first), else every number.
    """
    if not text:
        return []
    lists = _BRACKETS.findall(text)
    source = lists[-1] if lists else text
    return [float(n) for n in _NUMBER.findall(source)]


def streaming_scores(text: str | None, answers: Sequence[float], mra: str = "official") -> np.ndarray:
    """MRA of each expected count (shape ``(len(answers),)``, in {0, 0.1, ..., 1}); a missing count scores 0.

    Counts beyond ``len(answers)`` are ignored. Raises UnknownNameError on an unknown ``mra`` mode only.
    """
    counts = read_counts(text)[: len(answers)]
    predictions = np.full(len(answers), np.nan)
    predictions[: len(counts)] = counts
    return mra_array(predictions, np.asarray(answers, dtype=float), mra)


def streaming_score(text: str | None, answers: Sequence[float], mra: str = "official") -> float:
    """Return the item's score: the mean of :func:`streaming_scores` over all expected answers (0.0: none)."""
    scores = streaming_scores(text, answers, mra)
    return float(np.nan_to_num(scores).mean()) if len(scores) else 0.0


def score_streaming(item: Item, text: str | None, mra: str) -> tuple[str | None, str, float]:
    """Return (the counts read as JSON text or None, the rule, the item's :func:`streaming_score`)."""
    answers = json.loads(item.ground_truth)
    if text is None:
        return None, "missing_prediction", 0.0
    counts = read_counts(text)
    if not counts:
        return None, f"{NO_ANSWER}:no_count", 0.0
    rule = "streaming:list" if _BRACKETS.search(text) else "streaming:numbers"
    shown = json.dumps([int(c) if c.is_integer() else c for c in counts])
    return shown, rule, streaming_score(text, answers, mra)
