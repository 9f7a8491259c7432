"""Questions of all frame sets → QA rows (the official CSV columns), balanced subsets, lettered choices.

Columns: the release's (``benchmarks.remindview.format.COLUMNS``: ``folder_path, query_type, query,
ground_truth, choices, cross_frame, perspective_changing, object_num``), then ``template``, ``bindings``
(JSON: placeholder → frame index, instance id, direction or turn) and ``answer_index`` for checking.
``choices`` are joined with ", " (the loader splits on commas; no name contains one). View–view templates
are not asked on the view-centric pattern (App. C).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from spatialbench.benchmarks.remindview.format import COLUMNS as RELEASE_COLUMNS
from spatialbench.generate.remindview.choices import LetterBalancer, PatternBalancer
from spatialbench.generate.remindview.frameset import FrameSet
from spatialbench.generate.remindview.instantiate import instantiate
from spatialbench.generate.remindview.questions import Question, QuestionSettings, templates
from spatialbench.generate.vsi.seeding import derived_rng
from spatialbench.synth.rigs import Rig

COLUMNS = (*RELEASE_COLUMNS, "template", "bindings", "answer_index")


@dataclass(frozen=True)
class Asked:
    """A question with the frame set it is about."""

    frames: FrameSet
    question: Question


def ask(frames: FrameSet, settings: QuestionSettings, seed: int, patterns: PatternBalancer) -> list[Asked]:
    """Every template's questions on one frame set (template order), each template with its own generator.

    ``patterns`` is shared by the whole data set. Templates naming objects need ``settings.min_objects``
    question objects (the official ``min_object_list_len``).
    """
    asked = []
    for template in templates():
        if template.relation == "view-view" and frames.poses.rig is Rig.VIEW_CENTRIC:
            continue
        if template.relation != "view-view" and len(frames.objects) < settings.min_objects:
            continue
        rng = derived_rng(seed, frames.folder, str(template.index))
        asked += [Asked(frames, q) for q in instantiate(frames, template, settings, rng, patterns)]
    return asked


def per_template(asked: Sequence[Asked], count: int | None, seed: int) -> list[Asked]:
    """At most ``count`` questions per template, drawn uniformly (seeded), in their original order."""
    if count is None:
        return list(asked)
    keep: set[int] = set()
    for template in templates():
        indices = [i for i, a in enumerate(asked) if a.question.template.index == template.index]
        rng = derived_rng(seed, "per-template", str(template.index))
        chosen = rng.permutation(len(indices))[:count]
        keep |= {indices[int(c)] for c in chosen}
    return [a for i, a in enumerate(asked) if i in keep]


def rows(asked: Sequence[Asked], seed: int) -> list[dict[str, Any]]:
    """QA rows (module docstring) with balanced answer letters."""
    balancer = LetterBalancer(derived_rng(seed, "letters"))
    out = []
    for item in asked:
        q, frames = item.question, item.frames
        choices = balancer.arrange(q.template.index, q.answer, q.distractors)
        out.append(
            {
                "folder_path": frames.folder,
                "query_type": q.template.query_type,
                "query": q.text(frames),
                "ground_truth": q.answer,
                "choices": ", ".join(choices),
                "cross_frame": q.cross_frame(frames),
                "perspective_changing": q.template.perspective == "PC",
                "object_num": frames.visible_count,
                "template": q.template.index,
                "bindings": json.dumps({k: _plain(v) for k, v in sorted(q.bindings.items())}),
                "answer_index": choices.index(q.answer),
            }
        )
    return out


def _plain(value: Any) -> Any:
    return int(value) if isinstance(value, (int, np.integer)) else value
