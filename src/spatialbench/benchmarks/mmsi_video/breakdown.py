"""MMSI-Video-Bench tables: 13 subtypes (Table 2), main categories (Table 3), difficulty, sub-benchmarks.

All scores are question-weighted accuracy (a category's score is over its questions, not the mean of its
subtypes: Table 3's Plan.&Pred. of O4-mini, 34.0, is 48/124 Planning and 22/82 Prediction together, not the
mean 32.75 of 38.7 and 26.8). Each cell carries its random-guess baseline (mean of 1 / number of options;
24.1 over the whole benchmark, Table 2).

Sub-benchmarks (Sec. 8, Table 6) and difficulty levels come from the official id lists in ``meta_data/``.
The difficulty file names its levels ``level_1``…``level_3``; ``level_1`` is **Hard**, ``level_3`` **Easy**:
with 327 / 400 / 379 questions, O4-mini's Sufficient-Coverage row of Table 3 (Hard 16.2, Medium 30.0,
Easy 56.7, Avg 35.1) is 53/327, 120/400, 215/379 and 388/1106, while the reverse order fits no row.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from spatialbench.records.errors import unreadable
from spatialbench.scoring.grouped import Group, Table, grouped
from spatialbench.scoring.rules import ColumnGroup

MEMORY_UPDATE = "(Cross-Video) Memoery Update"  # official spelling in mmsivideo.json

#: (official ``type``, Table 2 group), in Table 2 group order
SUBTYPES: tuple[tuple[str, str], ...] = (
    ("(Spatial Construction) Instance/Scene Attribute", "Attr."),
    ("(Spatial Construction) Instance-Instance Spatial Relationship", "Inst.-Inst."),
    ("(Spatial Construction) Instance-Scene Spatial Relationship", "Inst.-Scen."),
    ("(Spatial Construction) Scene-Scene Spatial Relationship", "Scen.-Scen."),
    ("(Spatial Construction) Camera-Instance Spatial Relationship", "Cam.-Inst."),
    ("(Spatial Construction) Camera-Scene Spatial Relationship", "Cam.-Scen."),
    ("(Motion Understanding) Camera Motion", "Cam."),
    ("(Motion Understanding) Instance Motion", "Inst."),
    ("(Motion Understanding) Interactive Motion", "Inter."),
    (MEMORY_UPDATE, "MU."),
    ("(Cross-Video) Multi-View Integration", "MV."),
    ("Planning", "Plan."),
    ("Prediction", "Pred."),
)
#: the corrected spelling, accepted as the same subtype
TYPE_ALIASES = {"(Cross-Video) Memory Update": MEMORY_UPDATE}

#: Table 3 main categories: group → official types
MAIN_CATEGORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("SC.", tuple(t for t, _ in SUBTYPES[:6])),
    ("MU.", tuple(t for t, _ in SUBTYPES[6:9])),
    ("Plan.&Pred.", ("Planning", "Prediction")),
    ("CV.", (MEMORY_UPDATE, "(Cross-Video) Multi-View Integration")),
)

#: Table 2's top header row over the 13 subtypes (keys: official types); Plan. and Pred. stand alone
TABLE2_GROUPS = (
    ColumnGroup("Spatial Construction", tuple(t for t, _ in SUBTYPES[:6])),
    ColumnGroup("Motion Understanding", tuple(t for t, _ in SUBTYPES[6:9])),
    ColumnGroup("Cross-Video", tuple(t for t, _ in SUBTYPES[9:11])),
    ColumnGroup("Planning", ("Planning",)),
    ColumnGroup("Prediction", ("Prediction",)),
)

#: sub-benchmark name → (id-list file in meta_data/, title, ((group, key in the file), ...)) (Table 6 order)
SUB_BENCHMARKS: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {
    "indoor": (
        "indoor_perception_bench.json",
        "Indoor Scene Perception Bench",
        (
            ("Static-CC.", "Static Scene (Camera-Centric)"),
            ("Static-IC.", "Static Scene (Instance-Centric)"),
            ("Dynamic", "Dynamic Scene"),
        ),
    ),
    "robot": ("robot_bench.json", "Robot Bench", (("Man.", "Manipulation"), ("Nav.", "Navigation"))),
    "grounding": (
        "ground_bench.json",
        "Grounding Bench",
        (("TG.", "Target Grounding"), ("TL.", "Time Localization")),
    ),
    "difficulty": (
        "easy2hard_bench.json",
        "Difficulty levels",
        (("Hard", "level_1"), ("Medium", "level_2"), ("Easy", "level_3")),
    ),
}


def canonical_type(task: str) -> str:
    """Return the official spelling of a subtype (the corrected ``Memory Update`` becomes ``Memoery``)."""
    return TYPE_ALIASES.get(task, task)


def canonical(rows: pd.DataFrame) -> pd.DataFrame:
    """Score rows with every ``task`` in its official spelling (see :func:`canonical_type`)."""
    return rows.assign(task=rows["task"].map(canonical_type))


#: Table 2's columns: key = official ``type``, label = the paper's group name
SUBTYPE_GROUPS = tuple(Group.of(label, official, task=official) for official, label in SUBTYPES)
#: ``Avg.`` of Tables 2 and 3: question-weighted over the questions of the 13 subtypes (an item of another
#: ``type`` is in no column and not in ``Avg.``; :func:`outside_tables` lists such items)
AVERAGE = Group.of("Avg.", task=[official for official, _ in SUBTYPES])


def registered_table(rows: pd.DataFrame) -> Table:
    """Table 2 as the benchmark's score table: the 13 subtypes; ``average`` over their questions."""
    return grouped(canonical(rows), SUBTYPE_GROUPS, weighting="questions")


def subtype_table(frame: pd.DataFrame) -> Table:
    """Table 2: the 13 subtypes in the paper's group order, then ``Avg.`` over their questions."""
    title = "MMSI-Video-Bench subtypes (Table 2; Avg. = question-weighted over the 13 subtypes)"
    return grouped(canonical(frame), [*SUBTYPE_GROUPS, AVERAGE], title=title)


def category_table(frame: pd.DataFrame) -> Table:
    """Table 3 main categories: ``Avg.`` (question-weighted, 13 subtypes), SC., MU., Plan.&Pred., CV."""
    groups = [Group.of(label, task=list(types)) for label, types in MAIN_CATEGORIES]
    title = "MMSI-Video-Bench main categories (Table 3; Avg. = question-weighted over the 13 subtypes)"
    return grouped(canonical(frame), [AVERAGE, *groups], title=title)


def outside_tables(frame: pd.DataFrame) -> str | None:
    """Return a warning naming the scored items of a ``type`` outside the 13 subtypes (None if none is)."""
    scored = canonical(frame[frame["score"].notna()])
    outside = scored[~AVERAGE.mask(scored)]
    if not len(outside):
        return None
    types = sorted({str(t) for t in outside["task"]})
    ids = ", ".join(str(i) for i in outside["id"][:5]) + (" ..." if len(outside) > 5 else "")
    return (
        f"{len(outside)} item(s) of a type outside Tables 2/3 ({', '.join(map(repr, types))}; {ids}) are in "
        "no column and not in Avg."
    )


def load_id_lists(meta_dir: Path | str, name: str) -> dict[str, list[str]]:
    """Read the official id lists of sub-benchmark ``name`` (indoor, robot, grounding, difficulty).

    Raises:
        KeyError: unknown sub-benchmark name (message lists the names).
        FileNotFoundError: the id-list file is missing (message names it and where it comes from).
        ValueError: the file is not a JSON object of id lists, or lacks a group's key.
    """
    if name not in SUB_BENCHMARKS:
        raise KeyError(f"unknown MMSI-Video-Bench sub-benchmark {name!r}; known: {', '.join(SUB_BENCHMARKS)}")
    file_name, _, groups = SUB_BENCHMARKS[name]
    path = Path(meta_dir) / file_name
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} not found: copy meta_data/ from the official MMSI-Video-Bench repository"
        )
    data = _read_json(path)
    if not isinstance(data, Mapping) or not all(isinstance(v, list) for v in data.values()):
        raise ValueError(f"{path}: expected a JSON object mapping category names to lists of question ids")
    missing = [key for _, key in groups if key not in data]
    if missing:
        raise ValueError(f"{path}: missing categories {missing}; found {list(data)}")
    return {key: [str(i) for i in ids] for key, ids in data.items()}


def _read_json(path: Path) -> Any:
    """Parse a JSON file; errors name the file (and line and column for bad JSON)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as err:  # JSONDecodeError, UnicodeDecodeError
        raise unreadable(path, err) from None


def sub_benchmark_table(frame: pd.DataFrame, name: str, id_lists: Mapping[str, Sequence[str]]) -> Table:
    """Score a sub-benchmark (or the difficulty levels): ``Avg.`` over its listed questions, then groups."""
    _, title, groups = SUB_BENCHMARKS[name]
    listed = [i for _, key in groups for i in id_lists[key]]
    cells = [Group.of("Avg.", id=listed)] + [Group.of(label, id=list(id_lists[key])) for label, key in groups]
    if name == "difficulty":
        cells = cells[1:]  # Table 3 prints Hard / Medium / Easy beside the overall Avg.
    return grouped(frame.assign(id=frame["id"].astype(str)), cells, title=f"MMSI-Video-Bench {title}")


def mmsi_tables(
    frame: pd.DataFrame,
    meta_dir: Path | str | None,
    sub_bench: str | None = None,
    warnings: list[str] | None = None,
) -> list[Table]:
    """Build the tables of a run from its score rows joined with the items (``scoring.grouped.with_items``).

    One sub-benchmark's table when ``sub_bench`` is given, else Tables 2 and 3 and, when ``meta_dir`` holds
    the id lists, the difficulty levels. An unreadable optional id list (the difficulty file) drops only
    that table; ``warnings`` (when given) gets a line naming the file, and one for items outside Table 2.

    Raises:
        KeyError / FileNotFoundError / ValueError: as :func:`load_id_lists`, for a requested sub-benchmark.
    """
    notes: list[str] = warnings if warnings is not None else []
    outside = outside_tables(frame)
    if outside is not None:
        notes.append(outside)
    if sub_bench is not None:
        if meta_dir is None:
            raise FileNotFoundError(f"sub-benchmark {sub_bench!r} needs the meta_data/ folder of id lists")
        return [sub_benchmark_table(frame, sub_bench, load_id_lists(meta_dir, sub_bench))]
    tables = [subtype_table(frame), category_table(frame)]
    if meta_dir is not None and (Path(meta_dir) / SUB_BENCHMARKS["difficulty"][0]).is_file():
        try:
            tables.append(sub_benchmark_table(frame, "difficulty", load_id_lists(meta_dir, "difficulty")))
        except ValueError as err:
            notes.append(f"{err}; difficulty table left out (Tables 2 and 3 do not need it)")
    return tables


__all__ = [
    "AVERAGE",
    "MAIN_CATEGORIES",
    "SUBTYPE_GROUPS",
    "SUBTYPES",
    "SUB_BENCHMARKS",
    "TABLE2_GROUPS",
    "category_table",
    "load_id_lists",
    "mmsi_tables",
    "outside_tables",
    "registered_table",
    "sub_benchmark_table",
    "subtype_table",
]
