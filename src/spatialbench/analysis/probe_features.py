"""Phase-end features of a traced run for the probes (:mod:`spatialbench.analysis.probing`).

Each traced, scored item with an extracted answer gives one row per phase found: the anchor
(:mod:`spatialbench.models.hf_trace`) latest in the phase, from its start to the next phase's start —
the last content token before the next marker (which may sit in the marker's heading, ``**Phase``) or,
for phase (4), the answer's last content token. Rows are the anchor's logits restricted to the chosen
vocabulary columns (``logits``) or a stored layer's hidden state (``hidden:J``). Scenes: the item's
``scene_id``, else its frame folder without the ``level_<k>`` part (ReMindView-Bench: all distance levels
of one object set-up are one scene). Traces are read one at a time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from spatialbench.analysis.entropy import read_counted
from spatialbench.analysis.judge.truth import frame_folder
from spatialbench.analysis.phases import PHASES, PhaseSplit, split
from spatialbench.analysis.probing import ProbeData, select_columns
from spatialbench.analysis.stored import StoredAnswer, correct_items
from spatialbench.records.item import Item
from spatialbench.runs.folder import RunFolder

Row = tuple[np.ndarray, str, str, bool, np.ndarray | None]
"""One item's row for one phase: features, label, scene, correct, answer logits (None without phase 4)."""


def scene_of(item: Item, data_root: Path) -> str:
    """Return the item's scene for the split (module docstring)."""
    if item.scene_id:
        return item.scene_id
    folder = frame_folder(item, data_root)
    if folder is None:
        return item.id
    return str(folder.parent if folder.name.startswith("level_") else folder)


def phase_anchor(trace: dict[str, np.ndarray], phases: PhaseSplit, k: int) -> int | None:
    """Return the index (into ``anchors``) of phase ``k``'s end anchor, or None (module docstring)."""
    if k not in phases.spans:
        return None
    start, end = phases.spans[k]
    inside = [i for i, step in enumerate(trace["anchors"]) if start <= int(trace["offsets"][step]) < end]
    return inside[-1] if inside else None


def _traced(
    answers: dict[str, StoredAnswer],
    folder: Path,
    wanted: set[str],
    counts: Counter[str],
    skipped: list[str],
) -> Iterator[tuple[str, dict[str, np.ndarray]]]:
    for item_id, answer in answers.items():
        name = answer.raw.get("trace")
        if item_id not in wanted or not isinstance(name, str):
            counts["no_trace" if item_id in wanted else "not_used"] += 1
            continue
        trace = read_counted(folder / name, counts, skipped)
        if trace is not None:
            yield item_id, trace


def _row(trace: dict[str, np.ndarray], index: int, features: str, columns: np.ndarray) -> np.ndarray:
    if features == "logits":
        width = trace["anchor_logits"].shape[-1]
        if len(columns) and int(columns[-1]) >= width:
            raise ValueError(
                f"a trace has {width} logit columns, another column {int(columns[-1])}: "
                "the traces come from models with different vocabularies"
            )
        return trace["anchor_logits"][index, columns].astype(np.float32)
    layer, stored = int(features.partition(":")[2]), trace["anchor_hidden"].shape[1]
    if not -stored <= layer < stored:
        raise ValueError(f"{features}: the traces hold {stored} hidden layer(s) (HFBackend trace_layers)")
    return trace["anchor_hidden"][index, layer].astype(np.float32)


def collect(
    run: RunFolder,
    items: list[Item],
    answers: dict[str, StoredAnswer],
    folder: Path,
    data_root: Path,
    features: str = "logits",
    max_features: int = 4096,
) -> tuple[dict[int, ProbeData], dict[str, int], list[str]]:
    """Return phase → probe data over the run's traced items, the item counts and the unreadable traces.

    An unreadable trace is counted and skipped (:func:`~spatialbench.analysis.entropy.read_counted`).

    Raises:
        ValueError: ``features`` is neither ``logits`` nor ``hidden:J``; traces differ in logit width.
    """
    if features != "logits" and not (features.startswith("hidden:") and features[7:].lstrip("-").isdigit()):
        raise ValueError(f"features must be logits or hidden:J (a stored layer index), got {features!r}")
    extracted = {str(i): e for i, e in zip(run.rows["id"], run.rows.get("extracted", []), strict=False)}
    labels = {i: str(e) for i, e in extracted.items() if isinstance(e, str) and e}
    by_id = {item.id: item for item in items}
    wanted = set(labels) & set(by_id)
    counts: Counter[str] = Counter(no_answer=len(set(extracted) - set(labels)))
    # the kept columns give the logit features and the answer logits (the Fig. 8 target) alike
    columns = select_columns(
        (t["anchor_logits"] for _, t in _traced(answers, folder, wanted, Counter(), [])), max_features
    )
    skipped: list[str] = []
    correct = correct_items(run)
    rows: dict[int, list[Row]] = {k: [] for k in PHASES}
    for item_id, trace in _traced(answers, folder, wanted, counts, skipped):
        counts["traced"] += 1
        phases = split("".join(str(p) for p in trace["pieces"]))
        answer_index = phase_anchor(trace, phases, 4)
        answer = None if answer_index is None else _row(trace, answer_index, "logits", columns)
        for k in PHASES:
            index = phase_anchor(trace, phases, k)
            if index is None:
                counts[f"no_phase_{k}"] += 1
                continue
            rows[k].append(
                (
                    _row(trace, index, features, columns),
                    labels[item_id],
                    scene_of(by_id[item_id], data_root),
                    correct.get(item_id, False),
                    answer,
                )
            )
    return {k: _stack(r) for k, r in rows.items() if r}, dict(counts), skipped


def _stack(rows: list[Row]) -> ProbeData:
    """Stack rows; answer logits only when every row has them (an item without phase (4) has none)."""
    features, labels, groups, correct, answers = zip(*rows, strict=True)
    targets = None if any(a is None for a in answers) else np.stack(answers)
    return ProbeData(
        np.stack(features), np.array(labels), np.array(groups), np.array(correct, dtype=bool), targets
    )
